/**
 * The REST mirror of players and the lobby (docs/api.md, "Players, lobby and bots"). It
 * only translates: every handler calls the application layer.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../app/actors.ts';
import type { Core } from '../app/core.ts';
import type { GameRead } from '../app/game-read.ts';
import type { PlayerOut } from '../app/players.ts';
import { requestActor } from './auth.ts';
import { optionalToken, playerResponses, requiredToken } from './openapi.ts';
import { errors, gameJson, idParam } from './rest.ts';

const page = { type: 'object', properties: { first: { type: 'integer' }, after: { type: 'string' } } } as const;

async function pageJson(p: { nodes: GameRead[]; hasNextPage: boolean; endCursor: string | null }) {
  return { games: await Promise.all(p.nodes.map((g) => gameJson(g))), pageInfo: { hasNextPage: p.hasNextPage, endCursor: p.endCursor } };
}

export async function playerRoutes(app: FastifyInstance, { application }: { application: Core }) {
  const actor = (req: FastifyRequest) => requestActor(application, req);
  const players = () => application.players;
  const lobby = () => application.lobby;
  const tokenJson = (t: { id: string; name: string; createdAt: Date; lastUsedAt: Date | null }) => ({
    id: t.id, name: t.name, createdAt: t.createdAt.toISOString(), lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
  });
  const meJson = async (p: PlayerOut) => ({ ...p, myTurnCount: await players().myTurnCount(p.id), tokens: (await players().tokens(p.id)).map(tokenJson) });
  const me = async (req: FastifyRequest): Promise<Actor> => {
    const a = await actor(req);
    await players().playerOf(a); // 401 without a player token
    return a;
  };

  app.post(
    '/api/players',
    {
      schema: {
        tags: ['players'],
        summary: 'Register a player; returns a player token, shown once',
        body: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, email: { type: 'string' } }, additionalProperties: false },
        response: { 201: playerResponses.registered, ...errors },
      },
    },
    async (req, reply) => {
      const registered = await players().register(req.body as { name: string; email?: string }, { address: req.ip });
      reply.code(201);
      return registered;
    },
  );

  app.get('/api/me', { schema: { tags: ['players'], summary: 'You (with a player token): your email, tokens and how many games await you', security: requiredToken, response: { 200: playerResponses.me, ...errors } } }, async (req) => {
    const a = await me(req);
    return { player: await meJson((await players().me(a))!) };
  });

  app.patch(
    '/api/me',
    {
      schema: {
        tags: ['players'],
        summary: 'Change your name, email (a code is sent to a new one) or notifyByEmail',
        body: { type: 'object', properties: { name: { type: 'string' }, email: { type: ['string', 'null'] }, notifyByEmail: { type: 'boolean' } }, additionalProperties: false },
        security: requiredToken,
        response: { 200: playerResponses.player, ...errors },
      },
    },
    async (req) => ({ player: await players().update(await me(req), req.body as Record<string, unknown>) }),
  );

  app.post(
    '/api/me/verify-email',
    { schema: { tags: ['players'], summary: 'Verify your email with the code sent to it', body: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } }, security: requiredToken, response: { 200: playerResponses.player, ...errors } } },
    async (req) => ({ player: await players().verifyEmail(await me(req), (req.body as { code: string }).code) }),
  );

  app.get(
    '/api/me/games',
    {
      schema: {
        tags: ['players'],
        summary: 'The games you hold a seat in, newest first; myTurn=true: those awaiting you',
        querystring: { type: 'object', properties: { ...page.properties, type: { type: 'string' }, status: { type: 'string' }, myTurn: { type: 'boolean' } } },
        security: requiredToken,
        response: { 200: playerResponses.myGames, ...errors },
      },
    },
    async (req) => {
      const a = await me(req);
      const q = req.query as { type?: string; status?: string; myTurn?: boolean; first?: number; after?: string };
      return { ...(await pageJson(await players().games(a, q))), myTurnCount: await players().myTurnCount((a as { playerId: string }).playerId) };
    },
  );

  app.get('/api/me/tokens', { schema: { tags: ['players'], summary: 'Your player tokens (never the tokens themselves)', security: requiredToken, response: { 200: playerResponses.tokens, ...errors } } }, async (req) => {
    const a = await me(req);
    return { tokens: (await players().tokens((a as { playerId: string }).playerId)).map(tokenJson) };
  });

  app.post(
    '/api/me/tokens',
    { schema: { tags: ['players'], summary: 'A new named player token, shown once', body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } }, security: requiredToken, response: { 201: playerResponses.tokenCreated, ...errors } } },
    async (req, reply) => {
      const created = await players().createToken(await actor(req), (req.body as { name: string }).name);
      reply.code(201);
      return { ...tokenJson(created), token: created.token };
    },
  );

  app.delete('/api/me/tokens/:id', { schema: { tags: ['players'], summary: 'Revoke a player token, at once on every server process', params: idParam, security: requiredToken, response: { 200: playerResponses.revoked, ...errors } } }, async (req) => ({
    revoked: await players().revokeToken(await actor(req), (req.params as { id: string }).id),
  }));

  app.post(
    '/api/games/:id/join',
    {
      schema: {
        tags: ['lobby'],
        summary: 'Take an open seat: with a player token as that player; without one, give a name and keep the seat token returned',
        params: idParam,
        body: { type: 'object', properties: { seat: { type: 'string' }, name: { type: 'string' }, inviteCode: { type: 'string' } }, additionalProperties: false },
        security: optionalToken,
        response: { 200: playerResponses.joined, ...errors },
      },
    },
    async (req) => {
      const joined = await lobby().join(await actor(req), (req.params as { id: string }).id, (req.body ?? {}) as { seat?: string; name?: string; inviteCode?: string });
      return { game: await gameJson(joined.game), seatToken: joined.seatToken };
    },
  );

  app.post('/api/games/:id/leave', { schema: { tags: ['lobby'], summary: 'Before the game starts: free your seat', params: idParam, security: requiredToken, response: { 200: playerResponses.game, ...errors } } }, async (req) => ({
    game: await gameJson(await lobby().leave(await actor(req), (req.params as { id: string }).id)),
  }));

  app.post('/api/games/:id/cancel', { schema: { tags: ['lobby'], summary: 'The creator cancels a game before it starts', params: idParam, security: requiredToken, response: { 200: playerResponses.game, ...errors } } }, async (req) => ({
    game: await gameJson(await lobby().cancel(await actor(req), (req.params as { id: string }).id)),
  }));

  app.get(
    '/api/open-games',
    { schema: { tags: ['lobby'], summary: 'Public games with an open seat, oldest first', querystring: { type: 'object', properties: { ...page.properties, type: { type: 'string' } } }, security: optionalToken, response: { 200: playerResponses.openGames, ...errors } } },
    async (req) => pageJson(await lobby().openGames(await actor(req), req.query as { type?: string; first?: number; after?: string })),
  );

  app.get(
    '/api/invitations/:code',
    {
      schema: {
        tags: ['lobby'],
        summary: 'The game an invite code belongs to, while it waits for players (the invite link /join/<code>)',
        params: { type: 'object', properties: { code: { type: 'string', maxLength: 100 } }, required: ['code'] },
        security: optionalToken,
        response: { 200: playerResponses.game, ...errors },
      },
    },
    async (req) => ({ game: await gameJson(await lobby().invitation(await actor(req), (req.params as { code: string }).code)) }),
  );
}
