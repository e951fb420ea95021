/**
 * POST /api/mail/inbound (docs/api.md, "Play by mail"): one raw message
 * (Content-Type: message/rfc822) from a mail server that pipes mail to HTTP, with
 * Authorization: Bearer <MAIL_INBOUND_SECRET>. Answered 202 once the message is stored
 * (with the job that handles it); the SMTP listener (smtp.ts) hands messages to the same
 * core call. Without a configured secret the route answers 404.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../app/core.ts';
import { AppError } from '../app/errors.ts';
import { MAX_INBOUND_BYTES } from '../app/mail-play.ts';
import { bearerToken } from './auth.ts';
import { errors } from './rest.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();

export async function mailRoutes(app: FastifyInstance, { application, secret }: { application: Core; secret: string | null }) {
  app.addContentTypeParser('message/rfc822', { parseAs: 'buffer', bodyLimit: MAX_INBOUND_BYTES }, (_req, body, done) => done(null, body));
  app.post(
    '/api/mail/inbound',
    {
      bodyLimit: MAX_INBOUND_BYTES,
      schema: {
        tags: ['mail'],
        summary: 'One inbound mail (message/rfc822) from a mail server; Authorization: Bearer <MAIL_INBOUND_SECRET>',
        response: { 202: { type: 'object', properties: { id: { type: 'string' }, duplicate: { type: 'boolean' } }, required: ['id', 'duplicate'] }, ...errors },
      },
    },
    async (req, reply) => {
      if (!secret || !application.mail.enabled) throw new AppError('NOT_FOUND', 'Play by mail is off on this service');
      let given: string | null = null;
      try {
        given = bearerToken(req.headers.authorization);
      } catch {
        given = null;
      }
      if (!given || !timingSafeEqual(digest(given), digest(secret))) throw new AppError('UNAUTHENTICATED', 'This route needs Authorization: Bearer <MAIL_INBOUND_SECRET>');
      if (!Buffer.isBuffer(req.body)) throw new AppError('BAD_REQUEST', 'Send the raw message as Content-Type: message/rfc822');
      const stored = await application.mail.receive(req.body);
      reply.code(202);
      return stored;
    },
  );
}
