/**
 * A GraphQL request is priced before it runs (src/api/cost.ts): aliases, page sizes and
 * nested lists multiply, and one that costs more than the limit is refused with
 * BAD_REQUEST naming its cost and the limit. Introspection stays free.
 */
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COST_LIMIT } from '../../src/api/cost.ts';
import { createGuessingGame } from '../support/client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let game: { id: string; tokens: Record<string, string> };
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000 });
  game = await createGuessingGame(server, undefined, undefined, 'PUBLIC'); // listed to anyone
});
afterAll(async () => server?.close());

const refusedForCost = (r: { status: number; data?: unknown; errors?: any[] }) => {
  expect(r.status).toBe(400);
  expect(r.data ?? null).toBeNull();
  expect(r.errors).toHaveLength(1);
  const e = r.errors![0];
  expect(e.extensions.code).toBe('BAD_REQUEST');
  expect(e.extensions.limit).toBe(COST_LIMIT);
  expect(e.extensions.cost).toBeGreaterThan(COST_LIMIT);
  expect(e.message).toContain(`costs ${e.extensions.cost}, more than the limit of ${COST_LIMIT}`);
};

describe('query cost', () => {
  it('aliases multiply the cost', async () => {
    refusedForCost(await server.gql(`{ ${Array.from({ length: 30 }, (_, i) => `a${i}: gameTypes { id commandSchema }`).join(' ')} }`));
    const few = await server.gql(`{ ${Array.from({ length: 3 }, (_, i) => `a${i}: gameTypes { id commandSchema }`).join(' ')} }`);
    expect(few.errors).toBeUndefined();
  });

  it('5,200 aliases of one field are refused before they run', async () => {
    const started = Date.now();
    const r = await server.gql(`{ ${Array.from({ length: 5200 }, (_, i) => `a${i}: gameTypes { id commandSchema }`).join(' ')} }`);
    refusedForCost(r);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a query too large even to count is refused as well', async () => {
    // Counting stops at twice the limit in fields (introspection fields count here).
    const small = await startTestServer({ rateLimit: 100_000, costLimit: 10 });
    try {
      const r = await small.gql(`{ ${Array.from({ length: 21 }, (_, i) => `a${i}: __typename`).join(' ')} }`);
      expect(r.status).toBe(400);
      expect(r.errors?.[0]?.extensions).toEqual({ code: 'BAD_REQUEST', limit: 10 });
      expect(r.errors?.[0]?.message).toMatch(/selects more than 20 fields/);
      expect((await small.gql(`{ gameTypes { id } }`)).errors?.[0]?.extensions).toEqual({ code: 'BAD_REQUEST', cost: 11, limit: 10 });
    } finally {
      await small.close();
    }
  });

  it('20 pages of 100 games with their whole logs are refused', async () => {
    refusedForCost(await server.gql(`{ ${Array.from({ length: 20 }, (_, i) => `a${i}: games(first: 100) { nodes { events { version data } } }`).join(' ')} }`));
    // Even one such page: 100 games times a log of up to 1,000 events.
    refusedForCost(await server.gql(`{ games(first: 100) { nodes { events { version data } } } }`));
  });

  it('a page size in a variable counts at its value', async () => {
    const q = `query($n: Int) { games(first: $n) { nodes { id events { version type data } } } }`;
    refusedForCost(await server.gql(q, { n: 100 }));
    const small = await server.gql(q, { n: 2 });
    expect(small.errors).toBeUndefined();
    expect(small.data.games.nodes.length).toBeGreaterThan(0);
  });

  it('the same query counts again when a variable it depends on changes (first, @include), not for another game', async () => {
    const q = `query($n: Int, $all: Boolean!) { gameTypes { id } games(first: $n) @include(if: $all) { nodes { id events { version type data } } } }`;
    expect((await server.gql(q, { n: 100, all: false })).errors).toBeUndefined();
    refusedForCost(await server.gql(q, { n: 100, all: true }));
    expect((await server.gql(q, { n: 2, all: true })).errors).toBeUndefined();
    refusedForCost(await server.gql(q, { n: 100, all: true }));
    const ofGame = `query($id: ID!, $n: Int) { game(id: $id) { id events(first: $n) { version } } }`;
    expect((await server.gql(ofGame, { id: game.id, n: 5 })).errors).toBeUndefined();
    expect((await server.gql(ofGame, { id: game.id, n: 6 })).data.game.id).toBe(game.id);
  });

  it('what a client asks on every turn is well within the limit, and introspection is free', async () => {
    const turn = await server.gql(
      `query($id: ID!) { game(id: $id) { id status version seats { id name isYou mustAct } awaiting { seat kind prompt } view { __typename ... on View { gameType phase } } legalCommands events { version type seat data at } result { winners reason } } }`,
      { id: game.id },
      game.tokens.north,
    );
    expect(turn.errors).toBeUndefined();
    const list = await server.gql(`{ games(first: 100) { nodes { id type status version seats { id name } isYourTurn } pageInfo { hasNextPage endCursor } } }`);
    expect(list.errors).toBeUndefined();
    const types = await server.gql(`{ gameTypes { id name seats minPlayers maxPlayers optionsSchema commandSchema } }`);
    expect(types.errors).toBeUndefined();
    // Ten introspection queries in one request cost nothing.
    const intro = getIntrospectionQuery().replace(/^\s*query IntrospectionQuery \{/, '').replace(/\}\s*fragment[\s\S]*$/, '');
    const fragments = getIntrospectionQuery().slice(getIntrospectionQuery().indexOf('fragment'));
    const ten = await server.gql(`query { ${Array.from({ length: 10 }, (_, i) => `i${i}: ${intro.trim()}`).join(' ')} } ${fragments}`);
    expect(ten.errors).toBeUndefined();
  });
});
