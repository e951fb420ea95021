/**
 * The REST mirror of the GraphQL API (docs/api.md), documented by OpenAPI at /docs. It
 * only translates: every handler calls the application layer.
 */
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../app/actors.ts';
import type { ExecuteOptions, Outcome } from '../app/commands.ts';
import type { Core } from '../app/core.ts';
import type { GameRead } from '../app/game-read.ts';
import type { LobbyCreateInput } from '../app/lobby.ts';
import { requestActor } from './auth.ts';
import { expectedVersion, versionTag, withIfMatch } from './http-semantics.ts';
import { COMMAND_NOTE, optionalToken, published, requiredToken, responses } from './openapi.ts';
import { oneOrder, ordersOf } from './orders.ts';
import { playerRoutes } from './rest-players.ts';
import { typesRoute } from './types-file.ts';

const errorBody = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', description: 'one of the stable codes (docs/api.md)' },
        message: { type: 'string' },
        reason: { type: 'string', description: 'ILLEGAL_COMMAND: the rule, in words' },
        currentVersion: { type: 'integer', description: 'VERSION_CONFLICT, PRECONDITION_FAILED' },
        retryAfter: { type: 'integer', description: 'RATE_LIMITED: seconds to wait (the Retry-After header too)' },
      },
      additionalProperties: true,
    },
  },
} as const;
export const errors = Object.fromEntries([400, 401, 403, 404, 409, 412, 422, 429].map((s) => [s, errorBody]));
export const idParam = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } as const;
const anyObject = { type: 'object', additionalProperties: true } as const;
/** Events on one REST page unless `first` asks for fewer (the most the application returns at once). */
const EVENTS_PAGE = 1000;

export async function gameJson(game: GameRead, withView = false) {
  const progress = await game.progress();
  return {
    id: game.id,
    type: game.type,
    status: game.status,
    version: game.version,
    createdAt: game.createdAt.toISOString(),
    updatedAt: game.updatedAt.toISOString(),
    seats: await game.seatsWithDeadlines(),
    phase: progress.phase,
    round: progress.round,
    awaiting: await game.awaitingWithDeadlines(),
    result: game.result,
    seedCommitment: game.seedCommitment,
    seed: await game.seed(),
    yourSeat: game.yourSeat,
    isYourTurn: game.isYourTurn,
    visibility: game.visibility,
    clock: game.clock,
    ...(withView ? { view: (await game.view()).view, legalCommands: await game.legalCommands(), legalOrders: await game.legalOrders() } : {}),
  };
}

export async function restRoutes(instance: FastifyInstance, { application }: { application: Core }) {
  // Requests typed from the routes' JSON Schemas: each handler sees the body, params and query it validated.
  const app = instance.withTypeProvider<JsonSchemaToTsProvider>();
  const actor = (req: FastifyRequest) => requestActor(application, req);

  /**
   * A submission's common part: If-Match: "<version>" works as expectedVersion (412 on a
   * mismatch), the Idempotency-Key header as idempotencyKey; the answer carries the ETag.
   */
  const submitted = (
    req: FastifyRequest,
    reply: FastifyReply,
    body: { expectedVersion?: number; idempotencyKey?: string; seat?: string },
    run: (who: Actor, opts: ExecuteOptions) => Promise<Outcome>,
  ) => {
    const header = req.headers['idempotency-key'];
    const expected = expectedVersion(req.headers['if-match'], body.expectedVersion);
    return withIfMatch(reply, expected.fromHeader, async () => {
      const opts = { expectedVersion: expected.expectedVersion, idempotencyKey: body.idempotencyKey ?? (typeof header === 'string' ? header : undefined), seat: body.seat };
      const outcome = await run(await actor(req), opts);
      reply.header('etag', versionTag(outcome.game.version));
      return { game: await gameJson(outcome.game), events: outcome.events };
    });
  };

  app.get('/api/game-types', { schema: { operationId: 'gameTypes', tags: ['games'], summary: 'The game types, their seats and JSON Schemas', response: { 200: responses.gameTypes } } }, async () => ({
    // The bots as GraphQL's GameType.bots lists them: the two channels say the same things.
    gameTypes: application.registry.types().map((t) => ({ ...published(t), bots: application.lobby?.botKinds(t.id) ?? [] })),
  }));

  app.get('/api/service-info', { schema: { operationId: 'serviceInfo', tags: ['games'], summary: 'What this service offers: mailEnabled (false: no mail, no verification codes, is ever sent)', response: { 200: responses.serviceInfo } } }, async () => ({
    mailEnabled: application.notifications.mailEnabled,
  }));

  app.post(
    '/api/games',
    {
      schema: { operationId: 'createGame',
        tags: ['games'],
        summary: 'Create a game; a seat token per named seat, an invite code when a seat is open',
        body: {
          type: 'object',
          required: ['type', 'seats'],
          properties: {
            type: { type: 'string' },
            options: anyObject,
            seats: {
              type: 'array',
              items: {
                type: 'object',
                required: ['seat'],
                properties: { seat: { type: 'string' }, name: { type: 'string' }, me: { type: 'boolean' }, open: { type: 'boolean' }, bot: { type: 'string' } },
                additionalProperties: false,
              },
            },
            visibility: { enum: ['PUBLIC', 'PRIVATE'] },
            clock: {
              type: 'object',
              required: ['perMove'],
              properties: {
                perMove: { type: 'integer', description: 'whole seconds for each decision, from 1 to 2592000 (30 days)' },
                onTimeout: { enum: ['RESIGN', 'BOT'], description: 'a seat out of time is out (RESIGN, default) or played by the random bot (BOT)' },
              },
              additionalProperties: false,
            },
          },
        } as const,
        security: optionalToken,
        response: { 201: responses.created, ...errors },
      },
    },
    async (req, reply) => {
      const created = await application.lobby.create(await actor(req), req.body as LobbyCreateInput);
      reply.code(201);
      return { game: await gameJson(created.game), seatTokens: created.seatTokens, inviteCode: created.inviteCode };
    },
  );

  app.get(
    '/api/games',
    {
      schema: { operationId: 'games',
        tags: ['games'],
        summary: 'List games, newest first; with a seat token, the games of that token',
        querystring: { type: 'object', properties: { type: { type: 'string' }, status: { type: 'string' }, first: { type: 'integer' }, after: { type: 'string' } } } as const,
        security: optionalToken,
        response: { 200: responses.games, ...errors },
      },
    },
    async (req) => {
      const page = await application.reads.listGames(await actor(req), req.query);
      return {
        games: await Promise.all(page.nodes.map((g) => gameJson(g))),
        pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor },
      };
    },
  );

  app.get('/api/games/:id', { schema: { operationId: 'game', tags: ['games'], summary: 'A game with the caller\'s view and legal commands (ETag: its version)', params: idParam, security: optionalToken, response: { 200: responses.game, ...errors } } }, async (req, reply) => {
    const game = await application.reads.read(req.params.id, await actor(req));
    reply.header('etag', versionTag(game.version)).header('vary', 'Authorization');
    return { game: await gameJson(game, true) };
  });

  app.get(
    '/api/games/:id/view',
    { schema: { operationId: 'gameView', tags: ['games'], summary: 'The caller\'s view after any version (replay)', params: idParam, querystring: { type: 'object', properties: { atVersion: { type: 'integer', minimum: 0 } } } as const, security: optionalToken, response: { 200: responses.view, ...errors } } },
    async (req) => {
      const game = await application.reads.read(req.params.id, await actor(req));
      return game.view(req.query.atVersion);
    },
  );

  app.post(
    '/api/games/:id/commands',
    {
      schema: { operationId: 'submitCommand',
        tags: ['commands'],
        summary: 'Submit a command as the token\'s seat',
        params: idParam,
        body: {
          type: 'object',
          properties: { command: { ...anyObject, description: COMMAND_NOTE }, notation: { type: 'string', description: 'instead of command: one line of the game\'s notation (docs/rules)' }, expectedVersion: { type: 'integer' }, idempotencyKey: { type: 'string' }, seat: { type: 'string' } },
          additionalProperties: false,
        } as const,
        headers: {
          type: 'object',
          properties: {
            'idempotency-key': { type: 'string', description: 'a retry with the same key returns the first outcome (the body\'s idempotencyKey works too)' },
            'if-match': { type: 'string', description: 'the version the command was decided against, as the ETag gives it ("7"): 412 PRECONDITION_FAILED otherwise' },
          },
        } as const,
        security: requiredToken,
        response: { 200: responses.outcome, ...errors },
      },
    },
    async (req, reply) =>
      submitted(req, reply, req.body, async (who, opts) => {
        const order = oneOrder(req.body.command, req.body.notation);
        return 'notation' in order ? application.commands.executeAll(who, req.params.id, [order], { ...opts, single: true }) : application.commands.execute(who, req.params.id, order.command, opts);
      }),
  );

  app.post(
    '/api/games/:id/commands/batch',
    {
      schema: { operationId: 'submitCommands',
        tags: ['commands'],
        summary: 'submitCommands: several commands (or lines of notation) of the token\'s seat, in order, all or none, in one append',
        params: idParam,
        body: {
          type: 'object',
          properties: {
            commands: { type: 'array', items: anyObject },
            notations: { type: 'array', items: { type: 'string' } },
            expectedVersion: { type: 'integer' },
            idempotencyKey: { type: 'string' },
            seat: { type: 'string' },
          },
          additionalProperties: false,
        } as const,
        security: requiredToken,
        response: { 200: responses.outcome, ...errors },
      },
    },
    async (req, reply) => submitted(req, reply, req.body, (who, opts) => application.commands.executeAll(who, req.params.id, ordersOf(req.body.commands, req.body.notations), opts)),
  );

  app.get('/api/games/:id/orders', { schema: { operationId: 'legalOrders', tags: ['games'], summary: 'legalOrders: the caller\'s legal commands as orders in words (notation, text, command)', params: idParam, security: optionalToken, response: { 200: responses.orders, ...errors } } }, async (req) => {
    const game = await application.reads.read(req.params.id, await actor(req));
    return { orders: await game.legalOrders() };
  });

  app.post('/api/games/:id/resign', { schema: { operationId: 'resign', tags: ['commands'], summary: 'Resign the token\'s seat (?seat= for a player holding several)', params: idParam, querystring: { type: 'object', properties: { seat: { type: 'string' } } } as const, security: requiredToken, response: { 200: responses.outcome, ...errors } } }, async (req) => {
    const outcome = await application.commands.execute(await actor(req), req.params.id, { type: 'resign' }, { seat: req.query.seat });
    return { game: await gameJson(outcome.game), events: outcome.events };
  });

  app.get(
    '/api/games/:id/events',
    { schema: { operationId: 'gameEvents', tags: ['games'], summary: 'The log as the caller may see it, a page at a time (pageInfo.endCursor is the next after)', params: idParam, querystring: { type: 'object', properties: { after: { type: 'integer', minimum: 0 }, first: { type: 'integer', minimum: 0 } } } as const, security: optionalToken, response: { 200: responses.events, ...errors } } },
    async (req, reply) => {
      const game = await application.reads.read(req.params.id, await actor(req));
      const q = req.query;
      const events = await game.events(q.after ?? 0, q.first ?? EVENTS_PAGE);
      // The log has no gaps: the page was cut when it ends before the game's version.
      const endCursor = events.length ? events[events.length - 1]!.version : (q.after ?? 0);
      const hasNextPage = endCursor < game.version;
      if (hasNextPage) reply.header('link', `</api/games/${game.id}/events?after=${endCursor}${q.first !== undefined ? `&first=${q.first}` : ''}>; rel="next"`);
      return { events, pageInfo: { hasNextPage, endCursor } };
    },
  );

  app.get('/api/games/:id/export', { schema: { operationId: 'exportGame', tags: ['replay'], summary: 'The whole game as one JSON document (complete once finished)', params: idParam, security: optionalToken, response: { 200: responses.export, ...errors } } }, async (req) => {
    return application.reads.export(req.params.id, await actor(req));
  });

  typesRoute(app, () => application.registry.types(), () => Object.fromEntries(application.registry.types().map((t) => [t.id, application.module(t.id).viewSchema])));
  await app.register(playerRoutes, { application });
}
