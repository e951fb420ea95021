/**
 * Real receivers for notification tests: an HTTP server on 127.0.0.1 that verifies each
 * webhook with the `standardwebhooks` library, and an SMTP server (smtp-server) whose mails
 * are parsed with mailparser. Nothing is mocked: the service speaks HTTP and SMTP to them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { Webhook } from 'standardwebhooks';

export interface Received {
  path: string;
  id: string;
  timestamp: string;
  body: any;
  raw: string;
  /** standardwebhooks' verify passed with the secret known for the path. */
  verified: boolean;
  status: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The secret to verify deliveries to `path` with. */
  secrets: Map<string, string>;
  /** Answer for a request (default 200); may hang by returning 'hang'. */
  answer: (req: { path: string; id: string; nth: number }) => number | 'hang' | { redirect: string } | { status: number; afterMs: number };
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const seen = new Map<string, number>();
  const hanging = new Set<http.ServerResponse>();
  const receiver: Receiver = {
    url: '',
    received,
    secrets: new Map(),
    answer: () => 200,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const id = String(req.headers['webhook-id'] ?? '');
      const secret = receiver.secrets.get(path);
      let verified = false;
      try {
        if (secret) {
          new Webhook(secret).verify(raw, {
            'webhook-id': id,
            'webhook-timestamp': String(req.headers['webhook-timestamp']),
            'webhook-signature': String(req.headers['webhook-signature']),
          });
          verified = true;
        }
      } catch {
        verified = false;
      }
      const nth = (seen.get(id) ?? 0) + 1;
      seen.set(id, nth);
      const answer = receiver.answer({ path, id, nth });
      let body: unknown = null;
      try {
        body = JSON.parse(raw);
      } catch {
        /* not JSON */
      }
      const status = answer === 'hang' ? 0 : typeof answer === 'number' ? answer : 'status' in answer ? answer.status : 302;
      received.push({ path, id, timestamp: String(req.headers['webhook-timestamp']), body, raw, verified, status });
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      if (typeof answer === 'object' && 'status' in answer) {
        // A slow receiver: the answer after a while (a hung-up request is not answered).
        hanging.add(res);
        setTimeout(() => {
          hanging.delete(res);
          if (!res.destroyed) res.writeHead(answer.status).end('ok');
        }, answer.afterMs).unref();
      } else if (typeof answer === 'object') res.writeHead(302, { location: answer.redirect }).end();
      else res.writeHead(answer).end(answer >= 400 ? 'no' : 'ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

export interface MailBox {
  url: string;
  mails: ParsedMail[];
  /** The mails received so far with `address` among their To addresses, oldest first. */
  to(address: string): ParsedMail[];
  /** Mails whose data began to arrive (with `answerAfterMs`, before they are answered). */
  started(): number;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (no TLS, no login), every mail parsed. `answerAfterMs`: each
 * mail is answered (accepted) that long after its data arrived, so its sender's job is in flight meanwhile.
 */
export async function startMailBox(opts: { answerAfterMs?: number } = {}): Promise<MailBox> {
  const mails: ParsedMail[] = [];
  let started = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      started++;
      simpleParser(stream)
        .then(async (mail) => {
          if (opts.answerAfterMs) await new Promise((r) => setTimeout(r, opts.answerAfterMs));
          mails.push(mail);
          callback();
        })
        .catch((e) => callback(e));
    },
  });
  // A sender killed in the middle of a mail (test/scaling/roles.test.ts kills a worker) resets
  // its connection, which smtp-server emits here: that mail never arrived whole, so it is not
  // counted, and the error must not go uncaught.
  server.on('error', () => {});
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as AddressInfo).port;
  const to = (address: string) => mails.filter((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((t) => t?.value.some((v) => v.address === address)));
  return { url: `smtp://127.0.0.1:${port}`, mails, to, started: () => started, close: () => new Promise((r) => server.close(() => r())) };
}

export async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, ms = 20_000, what = 'the condition'): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
