/**
 * The REST mirror of the GraphQL API (docs/api.md), documented by OpenAPI at /docs.
 */
import type { FastifyInstance } from 'fastify';
import type { GameRecord } from '../persistence/event-store.ts';
import { callerFor } from './auth.ts';
import type { Caller, ExportDocument, GameService } from './service.ts';

const errorBody = {
  type: 'object',
  properties: { error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } }, additionalProperties: true } },
};
const errors = Object.fromEntries([400, 401, 403, 404, 409, 422, 429].map((s) => [s, errorBody]));
const idParam = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };
const anyObject = { type: 'object', additionalProperties: true };

export async function gameJson(service: GameService, game: GameRecord, caller: Caller, withView = false) {
  const { state } = await service.state(game);
  const status = service.status(game, state);
  const { seats, yourSeat, isYourTurn } = service.seats(game, caller);
  return {
    id: game.id,
    type: game.type,
    status: game.status,
    version: game.version,
    createdAt: game.createdAt.toISOString(),
    updatedAt: game.updatedAt.toISOString(),
    seats,
    phase: status.phase,
    round: status.round,
    awaiting: status.awaiting,
    result: game.result,
    seedCommitment: game.seedCommitment,
    seed: service.seed(game),
    yourSeat,
    isYourTurn,
    ...(withView ? { view: service.view(game, state, caller), legalCommands: service.legalCommands(game, state, caller) } : {}),
  };
}

export async function restRoutes(app: FastifyInstance, { service, verifyBodyLimit }: { service: GameService; verifyBodyLimit: number }) {
  const caller = (req: { headers: { authorization?: string } }) => callerFor(service.store, req.headers.authorization);

  app.get('/api/game-types', { schema: { tags: ['games'], summary: 'The game types, their seats and JSON Schemas' } }, async () => ({
    gameTypes: service.registry.types(),
  }));

  app.post(
    '/api/games',
    {
      schema: {
        tags: ['games'],
        summary: 'Create a game; returns one secret token per seat',
        body: {
          type: 'object',
          required: ['type', 'seats'],
          properties: {
            type: { type: 'string' },
            options: anyObject,
            seats: { type: 'array', items: { type: 'object', required: ['seat', 'name'], properties: { seat: { type: 'string' }, name: { type: 'string' } } } },
          },
        },
        response: { ...errors },
      },
    },
    async (req, reply) => {
      const body = req.body as { type: string; options?: unknown; seats: { seat: string; name: string }[] };
      const created = await service.createGame(body);
      reply.code(201);
      return { game: await gameJson(service, created.game, { gameId: created.game.id, seat: null }), seatTokens: created.seatTokens };
    },
  );

  app.get(
    '/api/games',
    {
      schema: {
        tags: ['games'],
        summary: 'List games, newest first; with a seat token, the games of that token',
        querystring: { type: 'object', properties: { type: { type: 'string' }, status: { type: 'string' }, first: { type: 'integer' }, after: { type: 'string' } } },
      },
    },
    async (req) => {
      const who = await caller(req);
      const page = await service.listGames(who, req.query as { type?: string; status?: string; first?: number; after?: string });
      return {
        games: await Promise.all(page.nodes.map((g) => gameJson(service, g, who))),
        pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor },
      };
    },
  );

  app.get('/api/games/:id', { schema: { tags: ['games'], summary: 'A game with the caller\'s view and legal commands', params: idParam } }, async (req) => {
    const who = await caller(req);
    const game = await service.game((req.params as { id: string }).id);
    return { game: await gameJson(service, game, who, true) };
  });

  app.get(
    '/api/games/:id/view',
    { schema: { tags: ['games'], summary: 'The caller\'s view after any version (replay)', params: idParam, querystring: { type: 'object', properties: { atVersion: { type: 'integer', minimum: 0 } } } } },
    async (req) => {
      const who = await caller(req);
      const game = await service.game((req.params as { id: string }).id);
      return service.viewAt(game, who, (req.query as { atVersion?: number }).atVersion);
    },
  );

  app.post(
    '/api/games/:id/commands',
    {
      schema: {
        tags: ['commands'],
        summary: 'Submit a command as the token\'s seat',
        params: idParam,
        body: {
          type: 'object',
          required: ['command'],
          properties: { command: anyObject, expectedVersion: { type: 'integer' }, idempotencyKey: { type: 'string' } },
          additionalProperties: false,
        },
        response: { ...errors },
      },
    },
    async (req) => {
      const who = await caller(req);
      const body = req.body as { command: unknown; expectedVersion?: number; idempotencyKey?: string };
      const header = req.headers['idempotency-key'];
      const outcome = await service.submit({
        gameId: (req.params as { id: string }).id,
        caller: who,
        command: body.command,
        expectedVersion: body.expectedVersion,
        idempotencyKey: body.idempotencyKey ?? (typeof header === 'string' ? header : undefined),
      });
      return { game: await gameJson(service, outcome.game, who), events: outcome.events };
    },
  );

  app.post('/api/games/:id/resign', { schema: { tags: ['commands'], summary: 'Resign the token\'s seat', params: idParam } }, async (req) => {
    const who = await caller(req);
    const outcome = await service.submit({ gameId: (req.params as { id: string }).id, caller: who, command: { type: 'resign' } });
    return { game: await gameJson(service, outcome.game, who), events: outcome.events };
  });

  app.get(
    '/api/games/:id/events',
    { schema: { tags: ['games'], summary: 'The log as the caller may see it', params: idParam, querystring: { type: 'object', properties: { after: { type: 'integer', minimum: 0 }, first: { type: 'integer', minimum: 0 } } } } },
    async (req) => {
      const who = await caller(req);
      const game = await service.game((req.params as { id: string }).id);
      const q = req.query as { after?: number; first?: number };
      return { events: await service.events(game, who, q.after ?? 0, q.first) };
    },
  );

  app.get('/api/games/:id/export', { schema: { tags: ['replay'], summary: 'The whole game as one JSON document (complete once finished)', params: idParam } }, async (req) => {
    const who = await caller(req);
    return service.export((req.params as { id: string }).id, who);
  });

  app.post(
    '/api/games/verify',
    {
      // An export of a long game is far larger than any command: its own limit.
      bodyLimit: verifyBodyLimit,
      schema: { tags: ['replay'], summary: 'Re-derive every die roll from the seed and re-fold the log of an export', body: anyObject },
    },
    async (req) => service.verify(req.body as ExportDocument),
  );
}
