/**
 * The REST mirror of the GraphQL API (docs/api.md), documented by OpenAPI at /docs. It
 * only translates: every handler calls the application layer.
 */
import type { FastifyInstance } from 'fastify';
import type { Application, ExportDocument, GameRead } from '../app/application.ts';
import type { LobbyCreateInput } from '../app/lobby.ts';
import { actorFor } from './auth.ts';
import { playerRoutes } from './rest-players.ts';

const errorBody = {
  type: 'object',
  properties: { error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } }, additionalProperties: true } },
};
export const errors = Object.fromEntries([400, 401, 403, 404, 409, 422, 429].map((s) => [s, errorBody]));
export const idParam = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };
const anyObject = { type: 'object', additionalProperties: true };

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
    seed: game.seed,
    yourSeat: game.yourSeat,
    isYourTurn: game.isYourTurn,
    visibility: game.visibility,
    clock: game.clock,
    ...(withView ? { view: (await game.view()).view, legalCommands: await game.legalCommands() } : {}),
  };
}

export async function restRoutes(app: FastifyInstance, { application, verifyBodyLimit }: { application: Application; verifyBodyLimit: number }) {
  const actor = (req: { headers: { authorization?: string } }) => actorFor(application, req.headers.authorization);

  app.get('/api/game-types', { schema: { tags: ['games'], summary: 'The game types, their seats and JSON Schemas' } }, async () => ({
    gameTypes: application.registry.types(),
  }));

  app.post(
    '/api/games',
    {
      schema: {
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
              properties: { perMove: { type: 'integer', description: 'whole seconds for each decision, from 1 to 2592000 (30 days)' } },
              additionalProperties: false,
            },
          },
        },
        response: { ...errors },
      },
    },
    async (req, reply) => {
      const created = await application.lobby!.create(await actor(req), req.body as LobbyCreateInput);
      reply.code(201);
      return { game: await gameJson(created.game), seatTokens: created.seatTokens, inviteCode: created.inviteCode };
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
      const page = await application.listGames(await actor(req), req.query as { type?: string; status?: string; first?: number; after?: string });
      return {
        games: await Promise.all(page.nodes.map((g) => gameJson(g))),
        pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor },
      };
    },
  );

  app.get('/api/games/:id', { schema: { tags: ['games'], summary: 'A game with the caller\'s view and legal commands', params: idParam } }, async (req) => {
    const game = await application.read((req.params as { id: string }).id, await actor(req));
    return { game: await gameJson(game, true) };
  });

  app.get(
    '/api/games/:id/view',
    { schema: { tags: ['games'], summary: 'The caller\'s view after any version (replay)', params: idParam, querystring: { type: 'object', properties: { atVersion: { type: 'integer', minimum: 0 } } } } },
    async (req) => {
      const game = await application.read((req.params as { id: string }).id, await actor(req));
      return game.view((req.query as { atVersion?: number }).atVersion);
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
          properties: { command: anyObject, expectedVersion: { type: 'integer' }, idempotencyKey: { type: 'string' }, seat: { type: 'string' } },
          additionalProperties: false,
        },
        response: { ...errors },
      },
    },
    async (req) => {
      const body = req.body as { command: unknown; expectedVersion?: number; idempotencyKey?: string; seat?: string };
      const header = req.headers['idempotency-key'];
      const outcome = await application.execute(await actor(req), (req.params as { id: string }).id, body.command, {
        expectedVersion: body.expectedVersion,
        idempotencyKey: body.idempotencyKey ?? (typeof header === 'string' ? header : undefined),
        seat: body.seat,
      });
      return { game: await gameJson(outcome.game), events: outcome.events };
    },
  );

  app.post('/api/games/:id/resign', { schema: { tags: ['commands'], summary: 'Resign the token\'s seat (?seat= for a player holding several)', params: idParam, querystring: { type: 'object', properties: { seat: { type: 'string' } } } } }, async (req) => {
    const outcome = await application.execute(await actor(req), (req.params as { id: string }).id, { type: 'resign' }, { seat: (req.query as { seat?: string }).seat });
    return { game: await gameJson(outcome.game), events: outcome.events };
  });

  app.get(
    '/api/games/:id/events',
    { schema: { tags: ['games'], summary: 'The log as the caller may see it', params: idParam, querystring: { type: 'object', properties: { after: { type: 'integer', minimum: 0 }, first: { type: 'integer', minimum: 0 } } } } },
    async (req) => {
      const game = await application.read((req.params as { id: string }).id, await actor(req));
      const q = req.query as { after?: number; first?: number };
      return { events: await game.events(q.after ?? 0, q.first) };
    },
  );

  app.get('/api/games/:id/export', { schema: { tags: ['replay'], summary: 'The whole game as one JSON document (complete once finished)', params: idParam } }, async (req) => {
    return application.export((req.params as { id: string }).id, await actor(req));
  });

  app.post(
    '/api/games/verify',
    {
      // An export of a long game is far larger than any command: its own limit.
      bodyLimit: verifyBodyLimit,
      schema: { tags: ['replay'], summary: 'Re-derive every die roll from the seed and re-fold the log of an export', body: anyObject },
    },
    async (req) => application.verify(req.body as ExportDocument),
  );

  await app.register(playerRoutes, { application });
}
