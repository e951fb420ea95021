/**
 * A made-up token stands for nobody: it is UNAUTHENTICATED on every route and channel, and
 * never earns a rate-limit budget of its own (it is counted under the address). Behind a
 * proxy (TRUST_PROXY) each client is counted under its own forwarded address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuessingGame } from '../support/client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let game: { id: string; tokens: Record<string, string> };
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000 });
  game = await createGuessingGame(server);
});
afterAll(async () => server?.close());

const FORGED = 'made-up-token-0123456789abcdef';

describe('an unknown token', () => {
  it('is UNAUTHENTICATED on every GraphQL read, as on REST', async () => {
    for (const query of ['{ gameTypes { id } }', '{ games { nodes { id } } }', `{ game(id: "${game.id}") { id } }`, '{ __typename }']) {
      const r = await server.gql(query, undefined, FORGED);
      expect(r.status, query).toBe(401);
      expect(r.errors?.[0]?.extensions.code, query).toBe('UNAUTHENTICATED');
    }
    for (const path of ['/api/game-types', '/api/games', `/api/games/${game.id}`, `/api/games/${game.id}/events`, `/api/games/${game.id}/export`]) {
      const r = await server.rest('GET', path, undefined, FORGED);
      expect(r.status, path).toBe(401);
      expect(r.body.error.code).toBe('UNAUTHENTICATED');
    }
    // A real token and no token still work; probes answer whoever asks.
    expect((await server.gql('{ gameTypes { id } }', undefined, game.tokens.north)).status).toBe(200);
    expect((await server.gql('{ gameTypes { id } }')).status).toBe(200);
    expect((await server.rest('GET', '/healthz', undefined, FORGED)).status).toBe(200);
  });

  it('is counted under the address: forged tokens do not get past an exhausted address', async () => {
    const limited = await startTestServer({ rateLimit: 3 });
    try {
      const g = await createGuessingGame(limited); // 1 of the address's 3
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await limited.gql('{ gameTypes { id } }', undefined, `${FORGED}-${i}`)).status);
      expect(statuses).toEqual([401, 401, 429, 429]);
      expect((await limited.rest('POST', '/api/games', { type: 'guessing-game', seats: [{ seat: 'north', name: 'A' }, { seat: 'east', name: 'B' }] }, 'another-forged')).status).toBe(429);
      // A real token keeps its own budget.
      expect((await limited.rest('GET', `/api/games/${g.id}`, undefined, g.tokens.north)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('TRUST_PROXY', () => {
  const from = (s: TestServer, address: string) => fetch(`${s.url}/api/game-types`, { headers: { 'x-forwarded-for': address } });

  it('counts each forwarded address on its own when the proxy is trusted', async () => {
    const proxied = await startTestServer({ rateLimit: 2, trustProxy: true });
    try {
      expect([(await from(proxied, '203.0.113.1')).status, (await from(proxied, '203.0.113.1')).status, (await from(proxied, '203.0.113.1')).status]).toEqual([200, 200, 429]);
      expect((await from(proxied, '203.0.113.2')).status).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('ignores X-Forwarded-For otherwise: a client cannot pick its own address', async () => {
    const direct = await startTestServer({ rateLimit: 2 });
    try {
      expect([(await from(direct, '203.0.113.1')).status, (await from(direct, '203.0.113.2')).status, (await from(direct, '203.0.113.3')).status]).toEqual([200, 200, 429]);
    } finally {
      await direct.close();
    }
  });
});
