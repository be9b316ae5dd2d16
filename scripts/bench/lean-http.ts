// The rush's load generator: HTTP/1.1 over keep-alive sockets, one request at a time per socket, for the hold
// requests the rush times. The benchmark shares the machine's cores with the server and PostgreSQL, so what its
// client spends per request is taken from them: Node's `http` client spent 120–230 µs of CPU per hold request
// (agent, header objects, streams), this one 35–45 µs, about what pgbench's client spends per transaction of its
// reference. It sends what `http.ts` sends and reads only answers with a `content-length` (the server's JSON
// answers all have one); anything else is an error, never a guess.
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Answer } from './http.ts';

interface Pending {
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
  started: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');

class Connection {
  readonly socket: net.Socket;
  private buffered: Buffer | null = null;
  private pending: Pending | null = null;
  closed = false;

  constructor(host: string, port: number, onClose: (c: Connection) => void) {
    this.socket = net.connect(port, host);
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    const close = (error?: Error) => {
      if (this.closed) return;
      this.closed = true;
      onClose(this);
      this.pending?.reject(error ?? new Error('the server closed the connection'));
      this.pending = null;
    };
    this.socket.on('error', close);
    this.socket.on('close', () => close());
  }

  send(request: string, pending: Pending) {
    this.pending = pending;
    this.socket.write(request);
  }

  private onData(chunk: Buffer) {
    const data = this.buffered ? Buffer.concat([this.buffered, chunk]) : chunk;
    const headEnd = data.indexOf(HEAD_END);
    if (headEnd < 0) {
      this.buffered = data;
      return;
    }
    const head = data.toString('latin1', 0, headEnd);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) {
      this.socket.destroy(new Error(`an answer without content-length: ${head.split('\r\n')[0]}`));
      return;
    }
    const bodyEnd = headEnd + 4 + Number(length[1]);
    if (data.length < bodyEnd) {
      this.buffered = data;
      return;
    }
    this.buffered = data.length > bodyEnd ? data.subarray(bodyEnd) : null;
    const pending = this.pending;
    this.pending = null;
    if (!pending) {
      this.socket.destroy(new Error('an answer nobody asked for'));
      return;
    }
    const at = performance.now();
    const status = Number(head.slice(9, 12));
    const text = data.toString('utf8', headEnd + 4, bodyEnd);
    const json = /\r\ncontent-type: *[^\r]*json/i.test(head);
    let body: unknown = text;
    try {
      if (json && text) body = JSON.parse(text);
    } catch (error) {
      pending.reject(error as Error);
      return;
    }
    pending.resolve({ status, body, ms: at - pending.started, at });
  }
}

/** Keep-alive connections to one server (host:port of `base`), as many as requests run at once. */
export class LeanHttp {
  private readonly host: string;
  private readonly port: number;
  private readonly idle: Connection[] = [];
  private readonly all = new Set<Connection>();

  constructor(base: string) {
    const url = new URL(base);
    if (url.protocol !== 'http:') throw new Error(`LeanHttp speaks plain HTTP only, not ${url.protocol}`);
    this.host = url.hostname;
    this.port = Number(url.port || 80);
  }

  /** One request with JSON in and out, as `request()` of `http.ts` makes it. */
  request<T = any>(
    method: string,
    path: string,
    opts: { token?: string; body?: unknown } = {},
  ): Promise<Answer<T>> {
    const payload = opts.body === undefined ? '' : JSON.stringify(opts.body);
    let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\n`;
    if (opts.token) head += `authorization: Bearer ${opts.token}\r\n`;
    if (opts.body !== undefined) head += 'content-type: application/json\r\n';
    const request = `${head}content-length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`;
    const connection = this.idle.pop() ?? this.open();
    return new Promise<Answer<T>>((resolve, reject) => {
      connection.send(request, {
        started: performance.now(),
        resolve: (answer) => {
          if (!connection.closed) this.idle.push(connection);
          resolve(answer as Answer<T>);
        },
        reject,
      });
    });
  }

  /** Closes every connection. */
  close() {
    for (const c of this.all) c.socket.destroy();
    this.all.clear();
    this.idle.length = 0;
  }

  private open(): Connection {
    const connection = new Connection(this.host, this.port, (c) => {
      this.all.delete(c);
      const at = this.idle.indexOf(c);
      if (at >= 0) this.idle.splice(at, 1);
    });
    this.all.add(connection);
    return connection;
  }
}

const clients = new Map<string, LeanHttp>();

/** The lean client of one server, kept across rounds as the agent of `http.ts` keeps its sockets. */
export function leanHttp(base: string): LeanHttp {
  let client = clients.get(base);
  if (!client) clients.set(base, (client = new LeanHttp(base)));
  return client;
}

/** Closes every lean client's connections (so the process can exit). */
export function closeLeanConnections() {
  for (const client of clients.values()) client.close();
  clients.clear();
}
