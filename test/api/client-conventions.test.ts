/**
 * What a bot author relies on besides the operations themselves: REST and GraphQL say the
 * same things (bots, export, verify), a rate-limited GraphQL client is told how long to wait,
 * and a bot that repeats one query may send only its hash (automatic persisted queries).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuessingGame } from '../support/client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000 });
});
afterAll(async () => server?.close());

const post = (body: unknown, target = server) =>
  fetch(`${target.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }));

describe('REST and GraphQL say the same things', () => {
  it('the game types list their bots on both', async () => {
    const gql = await server.gql('{ gameTypes { id bots } }');
    const rest = (await server.rest('GET', '/api/game-types')).body.gameTypes;
    expect(gql.data.gameTypes.find((t: { id: string }) => t.id === 'raid-on-wuchao').bots).toContain('random');
    for (const t of gql.data.gameTypes) expect(rest.find((r: { id: string }) => r.id === t.id).bots).toEqual(t.bots);
  });

  it('GraphQL exports and verifies a game as REST does', async () => {
    const game = await createGuessingGame(server);
    await server.rest('POST', `/api/games/${game.id}/resign`, undefined, game.tokens.north);
    const rest = (await server.rest('GET', `/api/games/${game.id}/export`)).body;
    const exported = await server.gql('query($id: ID!) { exportGame(id: $id) }', { id: game.id });
    expect(exported.errors).toBeUndefined();
    expect(exported.data.exportGame).toEqual(rest);
    const verified = await server.gql('mutation($e: JSON!) { verifyExport(export: $e) }', { e: exported.data.exportGame });
    expect(verified.data.verifyExport).toEqual((await server.rest('POST', '/api/games/verify', rest)).body);
    expect(verified.data.verifyExport.valid).toBe(true);
    const tampered = { ...rest, events: rest.events.slice(0, -1) };
    expect((await server.gql('mutation($e: JSON!) { verifyExport(export: $e) }', { e: tampered })).data.verifyExport.valid).toBe(false);
  });
});

describe('rate limits a bot can live with', () => {
  it('RATE_LIMITED in GraphQL says in extensions.retryAfter how many seconds to wait, as Retry-After does on REST', async () => {
    const limited = await startTestServer({ rateLimit: 2 });
    try {
      let last: { status: number; body: any } | undefined;
      for (let i = 0; i < 3; i++) last = await post({ query: '{ gameTypes { id } }' }, limited);
      expect(last!.status).toBe(429);
      const [error] = last!.body.errors;
      expect(error.extensions.code).toBe('RATE_LIMITED');
      expect(Number.isInteger(error.extensions.retryAfter)).toBe(true);
      expect(error.extensions.retryAfter).toBeGreaterThan(0);
      expect(error.extensions.retryAfter).toBeLessThanOrEqual(60);
      const rest = await fetch(`${limited.url}/api/game-types`);
      expect(rest.status).toBe(429);
      expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await rest.json()).error.retryAfter).toBe(Number(rest.headers.get('retry-after')));
    } finally {
      await limited.close();
    }
  });

  it('verifyExport has the budget of POST /api/games/verify', async () => {
    const strict = await startTestServer({ rateLimit: 100_000, verifyRateLimit: 1 });
    try {
      const game = await createGuessingGame(strict);
      const exported = (await strict.rest('GET', `/api/games/${game.id}/export`)).body;
      const verify = () => strict.gql('mutation($e: JSON!) { verifyExport(export: $e) }', { e: exported });
      expect((await verify()).errors).toBeUndefined();
      const refused = await verify();
      expect(refused.errors?.[0].extensions.code).toBe('RATE_LIMITED');
      expect(refused.errors?.[0].extensions.retryAfter).toBeGreaterThan(0);
    } finally {
      await strict.close();
    }
  });

  it('a repeated query may be sent as its sha256 alone (automatic persisted queries)', async () => {
    const query = `{ gameTypes { id name } } # ${Math.random()}`; // a text this process has not seen
    const persistedQuery = { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') };
    const unknown = await post({ extensions: { persistedQuery } });
    expect(unknown.body.errors[0].message).toBe('PersistedQueryNotFound');
    const first = await post({ query, extensions: { persistedQuery } });
    expect(first.body.errors).toBeUndefined();
    const again = await post({ extensions: { persistedQuery } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const mismatch = await post({ query: '{ gameTypes { id } }', extensions: { persistedQuery } });
    expect(mismatch.body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });
});
