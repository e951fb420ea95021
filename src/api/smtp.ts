/**
 * The SMTP listener of play by mail (MAIL_INBOUND_PORT; docs/api.md, "Play by mail"): an
 * MX (or a relay) delivers replies here. Each message is handed, raw, with its envelope,
 * to the core (core.mail.receive, as POST /api/mail/inbound does) and the transaction is
 * acknowledged only once it is stored; a message over 256 KiB is refused by SIZE and by
 * its length. No authentication on the SMTP level: a mail is authenticated by its reply
 * address's token and its From (src/app/mail-play.ts).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { Core } from '../app/core.ts';
import { MAX_INBOUND_BYTES } from '../app/mail-play.ts';

export interface SmtpListener {
  port: number;
  close(): Promise<void>;
}

export async function startSmtpListener(core: Core, opts: { port: number; host?: string; log?: (msg: string) => void }): Promise<SmtpListener> {
  const log = opts.log ?? (() => {});
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: MAX_INBOUND_BYTES,
    banner: 'wargame-service play by mail',
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let length = 0;
      stream.on('data', (c: Buffer) => {
        length += c.length;
        if (length <= MAX_INBOUND_BYTES) chunks.push(c);
      });
      stream.on('end', () => {
        if (stream.sizeExceeded || length > MAX_INBOUND_BYTES) {
          callback(Object.assign(new Error(`Message too big: at most ${MAX_INBOUND_BYTES / 1024} KiB`), { responseCode: 552 }));
          return;
        }
        const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
        const to = session.envelope.rcptTo.map((r) => r.address);
        core.mail.receive(Buffer.concat(chunks), { from, to }).then(
          () => callback(),
          (error: Error) => {
            log(`inbound mail not stored: ${error.message}`);
            // A temporary failure: the sending server tries again later.
            callback(Object.assign(new Error('Not stored; try again later'), { responseCode: 451 }));
          },
        );
      });
    },
  });
  server.on('error', (e) => log(`smtp listener: ${e.message}`));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
