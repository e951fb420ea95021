/**
 * The REST mirror of webhooks (docs/api.md, "Notifications") and the unsubscribe link of
 * mails. It only translates: every handler calls the application layer.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Core } from '../app/core.ts';
import type { Notifications, WebhookOut } from '../app/notifications.ts';
import { WEBHOOK_EVENTS } from '../app/notifications.ts';
import { requestActor } from './auth.ts';
import { playerOnly } from './openapi.ts';
import { errors, idParam } from './rest.ts';

const nullable = (type: string) => ({ type: [type, 'null'] });
const webhookSchema = {
  type: 'object',
  required: ['id', 'url', 'events', 'gameId', 'enabled', 'disabledReason', 'createdAt'],
  properties: {
    id: { type: 'string' }, url: { type: 'string' }, events: { type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENTS] } },
    gameId: nullable('string'), enabled: { type: 'boolean' }, disabledReason: nullable('string'), createdAt: { type: 'string' },
  },
} as const;
const deliverySchema = {
  type: 'object',
  required: ['id', 'event', 'status', 'attempts', 'lastError', 'at', 'gameId', 'version', 'seat'],
  properties: {
    id: { type: 'string', description: 'the webhook-id header: the same on every attempt' }, event: { type: 'string', enum: [...WEBHOOK_EVENTS] },
    status: { type: 'string', enum: ['PENDING', 'DELIVERED', 'FAILED', 'CANCELLED'] }, attempts: { type: 'integer' }, lastError: nullable('string'),
    at: { type: 'string' }, gameId: { type: 'string' }, version: { type: 'integer' }, seat: nullable('string'),
  },
} as const;
const webhookResponses = {
  created: { type: 'object', required: ['webhook', 'secret'], properties: { webhook: webhookSchema, secret: { type: 'string', description: 'whsec_<base64>, shown once' } } },
  list: {
    type: 'object', required: ['webhooks'],
    properties: { webhooks: { type: 'array', items: { ...webhookSchema, required: [...webhookSchema.required, 'deliveries'], properties: { ...webhookSchema.properties, deliveries: { type: 'array', items: deliverySchema } } } } },
  },
  deleted: { type: 'object', required: ['deleted'], properties: { deleted: { type: 'boolean' } } },
} as const;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function notificationRoutes(app: FastifyInstance, { application }: { application: Core }) {
  const notifications = (): Notifications => application.notifications;
  const player = async (req: FastifyRequest) => {
    const actor = await requestActor(application, req);
    const p = await application.players.playerOf(actor); // 401 without a player token
    return { actor, player: p };
  };
  const withDeliveries = async (w: WebhookOut, first?: number) => ({ ...w, deliveries: await notifications().deliveries(w.id, first ?? 20) });

  app.post(
    '/api/me/webhooks',
    {
      schema: { operationId: 'createWebhook',
        tags: ['notifications'],
        summary: 'Create a webhook (all your games, or one): its secret is shown once',
        body: {
          type: 'object', required: ['url', 'events'], additionalProperties: false,
          properties: { url: { type: 'string' }, events: { type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENTS] } }, gameId: { type: ['string', 'null'] } },
        },
        security: playerOnly,
        response: { 201: webhookResponses.created, ...errors },
      },
    },
    async (req, reply) => {
      const { actor } = await player(req);
      const created = await notifications().createWebhook(actor, req.body as Record<string, unknown>);
      reply.code(201);
      return created;
    },
  );

  app.get(
    '/api/me/webhooks',
    {
      schema: { operationId: 'webhooks',
        tags: ['notifications'], summary: 'Your webhooks and their latest deliveries', querystring: { type: 'object', properties: { first: { type: 'integer' } } },
        security: playerOnly, response: { 200: webhookResponses.list, ...errors },
      },
    },
    async (req) => {
      const { player: p } = await player(req);
      const first = (req.query as { first?: number }).first;
      return { webhooks: await Promise.all((await notifications().webhooks(p.id)).map((w) => withDeliveries(w, first))) };
    },
  );

  app.delete('/api/me/webhooks/:id', { schema: { operationId: 'deleteWebhook', tags: ['notifications'], summary: 'Delete one of your webhooks', params: idParam, security: playerOnly, response: { 200: webhookResponses.deleted, ...errors } } }, async (req) => {
    const { actor } = await player(req);
    return { deleted: await notifications().deleteWebhook(actor, (req.params as { id: string }).id) };
  });

  // The mail's unsubscribe link: a GET with no login turns that player's mail off; a POST
  // does the same for mail programs' one-click unsubscribe (List-Unsubscribe-Post).
  const unsubscribe = async (req: FastifyRequest, reply: import('fastify').FastifyReply) => {
    const q = req.query as { player?: string; token?: string };
    const done = await notifications().unsubscribe(q.player, q.token);
    reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!done) return reply.code(404).send('<!doctype html><title>Unsubscribe</title><p>This unsubscribe link is not valid, or was used already (each link works once). Mail settings are in your account (notifyByEmail).</p>');
    return `<!doctype html><title>Unsubscribed</title><p>Mail is off for ${escapeHtml(done.name)}: no more mails about your games. Turn it on again with notifyByEmail.</p>`;
  };
  const query = { type: 'object', properties: { player: { type: 'string' }, token: { type: 'string' } } };
  // An HTML page for people following a mail's link, not part of the JSON API.
  app.get('/unsubscribe', { schema: { hide: true, querystring: query } }, unsubscribe);
  app.post('/unsubscribe', { schema: { hide: true, querystring: query } }, unsubscribe);
}
