/**
 * The REST mirror of messages between players (docs/api.md, "Messages between players"):
 * GET and POST /api/games/:id/messages. It only translates: every handler calls the core.
 */
import type { FastifyInstance } from 'fastify';
import type { Core } from '../app/core.ts';
import { requestActor } from './auth.ts';
import { optionalToken, requiredToken, responses } from './openapi.ts';
import { errors, idParam } from './rest.ts';

export async function messageRoutes(app: FastifyInstance, { application }: { application: Core }) {
  app.get(
    '/api/games/:id/messages',
    {
      schema: {
        operationId: 'gameMessages', tags: ['messages'],
        summary: 'The messages you may read (public ones; private ones sent by or to your seat), oldest first; after: the id of the last one you have',
        params: idParam, querystring: { type: 'object', properties: { first: { type: 'integer' }, after: { type: 'string' } } },
        security: optionalToken, response: { 200: responses.messages, ...errors },
      },
    },
    async (req) => {
      const q = req.query as { first?: number; after?: string };
      return { messages: await application.messages.list(await requestActor(application, req), (req.params as { id: string }).id, q) };
    },
  );

  app.post(
    '/api/games/:id/messages',
    {
      schema: {
        operationId: 'sendMessage', tags: ['messages'],
        summary: 'Write to everyone in the game, or (to) privately to some of its seats',
        params: idParam,
        body: {
          type: 'object', required: ['text'],
          properties: { text: { type: 'string' }, to: { type: 'array', items: { type: 'string' }, description: 'absent: everyone in the game' }, seat: { type: 'string', description: 'for a player holding several seats: the one writing' } },
        },
        security: requiredToken, response: { 201: responses.message, ...errors },
      },
    },
    async (req, reply) => {
      const sent = await application.messages.send(await requestActor(application, req), (req.params as { id: string }).id, req.body as Record<string, unknown>);
      reply.code(201);
      return sent;
    },
  );
}
