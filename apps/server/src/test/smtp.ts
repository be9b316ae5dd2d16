import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

export interface TestSmtp {
  /** smtp:// URL with the server's user and password, for SMTP_URL. */
  url: string;
  /** Every message the server accepted, parsed. */
  received: ParsedMail[];
  /** Waits until `count` messages arrived (throws after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

/** A real SMTP server on a free local port (the `smtp-server` package) that keeps what it is sent, parsed. */
export async function startTestSmtp(port = 0): Promise<TestSmtp> {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === 'cinema' && auth.password === 's3cret pass') callback(null, { user: 'cinema' });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, _session, callback) {
      simpleParser(stream, { skipImageLinks: true }).then(
        (mail) => {
          received.push(mail);
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const { port: bound } = server.server.address() as AddressInfo;
  return {
    url: `smtp://cinema:${encodeURIComponent('s3cret pass')}@127.0.0.1:${bound}`,
    received,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} emails, ${received.length} arrived`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What the QR code in an emailed PNG (a ticket's, an order's) says, or null when none is found. */
export function decodeQr(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null;
}
