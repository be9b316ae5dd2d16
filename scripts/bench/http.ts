import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { closeLeanConnections } from './lean-http.ts';

/** Keep-alive connections for every virtual customer (one socket each when they all run at once). */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });

export interface Answer<T = any> {
  status: number;
  body: T;
  /** Milliseconds from sending the request to the whole answer. */
  ms: number;
  /** performance.now() when the answer was complete. */
  at: number;
}

/** One HTTP request with JSON in and out (a non-JSON answer is returned as text). */
export function request<T = any>(
  method: string,
  url: string,
  opts: { token?: string; body?: unknown } = {},
): Promise<Answer<T>> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const at = performance.now();
        const text = Buffer.concat(chunks).toString();
        let body: any = text;
        if ((res.headers['content-type'] ?? '').includes('json') && text) body = JSON.parse(text);
        resolve({ status: res.statusCode ?? 0, body, ms: at - started, at });
      });
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** Closes the idle keep-alive sockets (so the process can exit). */
export function closeConnections() {
  agent.destroy();
  closeLeanConnections();
}
