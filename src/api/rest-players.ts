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
import { optionalToken, playerOnly, playerResponses, requiredToken } from './openapi.ts';
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
  const meJson = async (p: PlayerOut) => ({
    ...p, myTurnCount: await players().myTurnCount(p.id), tokens: (await players().tokens(p.id)).map(tokenJson),
    calendarUrl: await application.digests.calendarUrl({ kind: 'player', playerId: p.id }),
  });
  const me = async (req: FastifyRequest): Promise<Actor> => {
    const a = await actor(req);
    await players().playerOf(a); // 401 without a player token
    return a;
  };

  app.post(
    '/api/players',
    {
      schema: { operationId: 'registerPlayer',
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

  app.get('/api/me', { schema: { operationId: 'me', tags: ['players'], summary: 'You (with a player token): your email, tokens and how many games await you', security: playerOnly, response: { 200: playerResponses.me, ...errors } } }, async (req) => {
    const a = await me(req);
    return { player: await meJson((await players().me(a))!) };
  });

  app.patch(
    '/api/me',
    {
      schema: { operationId: 'updatePlayer',
        tags: ['players'],
        summary: 'Change your name, email (a code is sent to a new one), notifyByEmail or emailDigest',
        body: { type: 'object', properties: { name: { type: 'string' }, email: { type: ['string', 'null'] }, notifyByEmail: { type: 'boolean' }, emailDigest: { type: 'boolean' } }, additionalProperties: false },
        security: playerOnly,
        response: { 200: playerResponses.player, ...errors },
      },
    },
    async (req) => ({ player: await players().update(await me(req), req.body as Record<string, unknown>) }),
  );

  // The calendar feed (me.calendarUrl): for calendar apps, no login; the token is the secret.
  app.get('/api/calendar/:file', { schema: { hide: true, params: { type: 'object', properties: { file: { type: 'string' } } } } }, async (req, reply) => {
    const m = /^([0-9a-f]{40})\.ics$/.exec((req.params as { file: string }).file);
    const feed = m ? await application.digests.calendarFeed(m[1]!) : null;
    reply.header('cache-control', 'no-store');
    if (feed === null) return reply.code(404).header('content-type', 'text/plain; charset=utf-8').send('No such calendar (it may have been revoked with your tokens: ask for me.calendarUrl again)');
    return reply.header('content-type', 'text/calendar; charset=utf-8').send(feed);
  });

  app.post(
    '/api/me/verify-email',
    { schema: { operationId: 'verifyEmail', tags: ['players'], summary: 'Verify your email with the code sent to it', body: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } }, security: playerOnly, response: { 200: playerResponses.player, ...errors } } },
    async (req) => ({ player: await players().verifyEmail(await me(req), (req.body as { code: string }).code) }),
  );

  app.get(
    '/api/me/games',
    {
      schema: { operationId: 'myGames',
        tags: ['players'],
        summary: 'The games you hold a seat in, newest first; myTurn=true: those awaiting you',
        querystring: { type: 'object', properties: { ...page.properties, type: { type: 'string' }, status: { type: 'string' }, myTurn: { type: 'boolean' } } },
        security: playerOnly,
        response: { 200: playerResponses.myGames, ...errors },
      },
    },
    async (req) => {
      const a = await me(req);
      const q = req.query as { type?: string; status?: string; myTurn?: boolean; first?: number; after?: string };
      return { ...(await pageJson(await players().games(a, q))), myTurnCount: await players().myTurnCount((a as { playerId: string }).playerId) };
    },
  );

  app.get('/api/me/tokens', { schema: { operationId: 'playerTokens', tags: ['players'], summary: 'Your player tokens (never the tokens themselves)', security: playerOnly, response: { 200: playerResponses.tokens, ...errors } } }, async (req) => {
    const a = await me(req);
    return { tokens: (await players().tokens((a as { playerId: string }).playerId)).map(tokenJson) };
  });

  app.post(
    '/api/me/tokens',
    { schema: { operationId: 'createPlayerToken', tags: ['players'], summary: 'A new named player token, shown once', body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } }, security: playerOnly, response: { 201: playerResponses.tokenCreated, ...errors } } },
    async (req, reply) => {
      const created = await players().createToken(await actor(req), (req.body as { name: string }).name);
      reply.code(201);
      return { ...tokenJson(created), token: created.token };
    },
  );

  app.delete('/api/me/tokens/:id', { schema: { operationId: 'revokePlayerToken', tags: ['players'], summary: 'Revoke a player token, at once on every server process', params: idParam, security: playerOnly, response: { 200: playerResponses.revoked, ...errors } } }, async (req) => ({
    revoked: await players().revokeToken(await actor(req), (req.params as { id: string }).id),
  }));

  app.post(
    '/api/games/:id/join',
    {
      schema: { operationId: 'joinGame',
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

  app.post('/api/games/:id/leave', { schema: { operationId: 'leaveGame', tags: ['lobby'], summary: 'Before the game starts: free your seat', params: idParam, security: requiredToken, response: { 200: playerResponses.game, ...errors } } }, async (req) => ({
    game: await gameJson(await lobby().leave(await actor(req), (req.params as { id: string }).id)),
  }));

  app.post('/api/games/:id/cancel', { schema: { operationId: 'cancelGame', tags: ['lobby'], summary: 'The creator cancels a game before it starts', params: idParam, security: requiredToken, response: { 200: playerResponses.game, ...errors } } }, async (req) => ({
    game: await gameJson(await lobby().cancel(await actor(req), (req.params as { id: string }).id)),
  }));

  app.get(
    '/api/open-games',
    { schema: { operationId: 'openGames', tags: ['lobby'], summary: 'Public games with an open seat, oldest first', querystring: { type: 'object', properties: { ...page.properties, type: { type: 'string' } } }, security: optionalToken, response: { 200: playerResponses.openGames, ...errors } } },
    async (req) => pageJson(await lobby().openGames(await actor(req), req.query as { type?: string; first?: number; after?: string })),
  );

  app.get(
    '/api/invitations/:code',
    {
      schema: { operationId: 'invitation',
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
