import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuessingGame, SUBMIT } from '../support/client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let game: { id: string; tokens: Record<string, string> };
let other: { id: string; tokens: Record<string, string> };

beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000, bodyLimit: 16 * 1024, queryDepth: 6 });
  game = await createGuessingGame(server);
  other = await createGuessingGame(server);
});
afterAll(async () => server?.close());

/** Every refusal must leave the game exactly as it was. */
async function unchanged() {
  const r = await server.rest('GET', `/api/games/${game.id}/events`);
  expect(r.body.events.map((e: { version: number }) => e.version)).toEqual([1]);
}

const code = (r: { errors?: { extensions: { code: string } }[] }) => r.errors?.[0]?.extensions.code;

describe('bad input is refused with a clear error and changes nothing', () => {
  it('malformed GraphQL', async () => {
    const r = await server.gql('mutation { submitCommand(gameId: ');
    expect(r.status).toBe(400);
    expect(code(r)).toBe('BAD_REQUEST');
    expect(r.errors![0].message).toMatch(/Syntax Error/);
  });

  it('a query against fields that do not exist', async () => {
    const r = await server.gql('{ game(id: "x") { nope } }');
    expect(code(r)).toBe('BAD_REQUEST');
  });

  it('malformed JSON, on /graphql and on REST', async () => {
    const g = await server.rest('POST', '/graphql', '{"query": "{ gameTypes { id } }"', undefined);
    expect(g.status).toBe(400);
    expect(g.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    const r = await server.rest('POST', `/api/games/${game.id}/commands`, '{"command": {', game.tokens.north);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('BAD_REQUEST');
    await unchanged();
  });

  it('an unknown game type, a bad seat, and bad options', async () => {
    const r = await server.gql(`mutation { createGame(input: { type: "chess", seats: [{ seat: "white", name: "W" }] }) { game { id } } }`);
    expect(code(r)).toBe('BAD_REQUEST');
    expect(r.errors![0].message).toContain('Unknown game type "chess"');
    const seats = await server.rest('POST', '/api/games', { type: 'guessing-game', seats: [{ seat: 'north', name: 'A' }, { seat: 'west', name: 'B' }] });
    expect(seats.status).toBe(400);
    expect(seats.body.error.message).toContain('Unknown seat "west"');
    const twice = await server.rest('POST', '/api/games', { type: 'guessing-game', seats: [{ seat: 'north', name: 'A' }, { seat: 'north', name: 'B' }] });
    expect(twice.status).toBe(400);
    const few = await server.rest('POST', '/api/games', { type: 'guessing-game', seats: [{ seat: 'north', name: 'A' }] });
    expect(few.body.error.message).toContain('needs 2 to 3 seats');
    const options = await server.rest('POST', '/api/games', { type: 'guessing-game', options: { target: 'many' }, seats: [{ seat: 'north', name: 'A' }, { seat: 'east', name: 'B' }] });
    expect(options.status).toBe(400);
    expect(options.body.error.message).toContain('target');
  });

  it('an unknown game id, well-formed or not', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const q = await server.gql(`query($id: ID!) { game(id: $id) { id } }`, { id });
      expect(code(q)).toBe('NOT_FOUND');
      const m = await server.gql(SUBMIT, { id, c: { type: 'guess', number: 1 } }, game.tokens.north);
      expect(code(m)).toBe('NOT_FOUND');
      expect((await server.rest('GET', `/api/games/${id}`)).status).toBe(404);
    }
    expect((await server.rest('GET', '/api/nothing-here')).body.error.code).toBe('NOT_FOUND');
  });

  it('a command failing the game type\'s schema', async () => {
    for (const c of [{ type: 'guess', number: 7 }, { type: 'guess' }, { type: 'fly' }, { number: 1 }, { type: 'guess', number: 1, extra: true }, 'guess', [1]]) {
      const r = await server.gql(SUBMIT, { id: game.id, c }, game.tokens.north);
      expect(code(r), JSON.stringify(c)).toBe('BAD_REQUEST');
    }
    const rest = await server.rest('POST', `/api/games/${game.id}/commands`, { command: { type: 'guess', number: 0 } }, game.tokens.north);
    expect(rest.status).toBe(400);
    expect(rest.body.error.message).toMatch(/number/);
    await unchanged();
  });

  it('a missing, wrong or malformed token, and a token of another game', async () => {
    const c = { type: 'guess', number: 1 };
    expect(code(await server.gql(SUBMIT, { id: game.id, c }))).toBe('UNAUTHENTICATED');
    expect(code(await server.gql(SUBMIT, { id: game.id, c }, 'forged-token'))).toBe('UNAUTHENTICATED');
    expect(code(await server.gql(SUBMIT, { id: game.id, c }, other.tokens.north))).toBe('FORBIDDEN');
    const malformed = await server.rest('POST', `/api/games/${game.id}/commands`, { command: c }, undefined, { authorization: 'Basic abc' });
    expect(malformed.status).toBe(401);
    expect((await server.rest('POST', `/api/games/${game.id}/commands`, { command: c })).status).toBe(401);
    expect((await server.rest('POST', `/api/games/${game.id}/commands`, { command: c }, other.tokens.east)).status).toBe(403);
    await unchanged();
  });

  it('a command the rules refuse, or from a seat whose turn it is not', async () => {
    const g = await createGuessingGame(server);
    await server.gql(SUBMIT, { id: g.id, c: { type: 'guess', number: 2 } }, g.tokens.north);
    const again = await server.gql(SUBMIT, { id: g.id, c: { type: 'guess', number: 2 } }, g.tokens.north);
    expect(code(again)).toBe('NOT_YOUR_TURN');
    expect(again.errors![0].message).toContain('east');
    const accept = await server.rest('POST', `/api/games/${g.id}/commands`, { command: { type: 'acceptDraw' } }, g.tokens.north);
    expect(accept.status).toBe(422);
    expect(accept.body.error).toMatchObject({ code: 'ILLEGAL_COMMAND', reason: 'No draw has been offered' });
    expect((await server.rest('GET', `/api/games/${g.id}`)).body.game.version).toBe(2);
  });

  it('a version that is not the current one', async () => {
    const r = await server.rest('POST', `/api/games/${game.id}/commands`, { command: { type: 'guess', number: 1 }, expectedVersion: 7 }, game.tokens.north);
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ code: 'VERSION_CONFLICT', currentVersion: 1 });
    await unchanged();
  });

  it('a body over the size limit', async () => {
    const big = { type: 'guessing-game', options: { padding: 'x'.repeat(20_000) }, seats: [] };
    const r = await server.rest('POST', '/api/games', big);
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('BAD_REQUEST');
    const g = await server.rest('POST', '/graphql', { query: `{ gameTypes { id } }`, variables: { pad: 'x'.repeat(20_000) } });
    expect(g.status).toBe(413);
    expect(g.body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('an over-deep query', async () => {
    const r = await server.gql(`query($id: ID!) { game(id: $id) { seats { id } view { ... on GenericView { state } } } games { edges { node { seats { id } } } } }`, { id: game.id });
    expect(r.errors).toBeUndefined();
    const deep = await server.gql(`{ games { edges { node { view { ... on RaidOnWuchaoView { combat { dice { die } } } } } } } }`);
    expect(code(deep)).toBe('BAD_REQUEST');
    // Introspection is not counted: tools send a query 15 deep.
    const introspection = await server.gql(`{ games { edges { node { id } } } __schema { types { fields { type { ofType { ofType { ofType { name } } } } } } } }`);
    expect(introspection.errors).toBeUndefined();
  });

  it('bad paging and replay arguments', async () => {
    expect(code(await server.gql(`{ games(first: 0) { nodes { id } } }`))).toBe('BAD_REQUEST');
    expect(code(await server.gql(`{ games(after: "garbage") { nodes { id } } }`))).toBe('BAD_REQUEST');
    expect(code(await server.gql(`query($id: ID!) { game(id: $id) { view(atVersion: 99) { __typename } } }`, { id: game.id }))).toBe('BAD_REQUEST');
    expect((await server.rest('GET', `/api/games/${game.id}/events?after=-1`)).status).toBe(400);
  });

  it('verify refuses a document that is not an export, or a running game\'s export', async () => {
    expect((await server.rest('POST', '/api/games/verify', { hello: 1 })).body.error).toMatchObject({ code: 'BAD_REQUEST' });
    const running = await server.rest('GET', `/api/games/${game.id}/export`);
    expect((await server.rest('POST', '/api/games/verify', running.body)).body).toMatchObject({ valid: false, reason: expect.stringContaining('finished') });
    // An export may be far larger than a command: verify has its own limit.
    const padded = { ...running.body, padding: 'x'.repeat(40_000) };
    expect((await server.rest('POST', '/api/games/verify', padded)).status).toBe(200);
  });
});

describe('verify', () => {
  it('catches a tampered die roll and says where the log first differs', async () => {
    const g = await createGuessingGame(server, ['north', 'east'], 2);
    for (let i = 0; i < 20; i++) {
      const q = await server.rest('GET', `/api/games/${g.id}`);
      if (q.body.game.status === 'FINISHED') break;
      for (const seat of new Set<string>(q.body.game.awaiting.map((p: { seat: string }) => p.seat))) {
        await server.gql(SUBMIT, { id: g.id, c: { type: 'guess', number: 1 } }, g.tokens[seat]);
      }
    }
    const doc = (await server.rest('GET', `/api/games/${g.id}/export`)).body;
    expect((await server.rest('POST', '/api/games/verify', doc)).body).toMatchObject({ valid: true });
    const roll = doc.events.find((e: { type: string }) => e.type === 'DieRolled');
    roll.data.roll = roll.data.roll === 6 ? 5 : roll.data.roll + 1;
    const report = (await server.rest('POST', '/api/games/verify', doc)).body;
    expect(report).toMatchObject({ valid: false, version: roll.version });
  });
});

describe('limits and plumbing', () => {
  it('rate limits per token and per address with RATE_LIMITED / 429', async () => {
    const limited = await startTestServer({ rateLimit: 3 });
    try {
      const g = await createGuessingGame(limited); // 1 request from this address
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await limited.rest('GET', `/api/games/${g.id}`, undefined, g.tokens.north)).status);
      expect(statuses).toEqual([200, 200, 200, 429]); // the token has its own budget
      const r = await limited.rest('GET', `/api/games/${g.id}`, undefined, g.tokens.north);
      expect(r.body.error.code).toBe('RATE_LIMITED');
      const gql = await limited.gql('{ gameTypes { id } }', undefined, g.tokens.north);
      expect(gql.status).toBe(429);
      expect(code(gql)).toBe('RATE_LIMITED');
      await limited.rest('GET', '/api/game-types');
      await limited.rest('GET', '/api/game-types');
      expect((await limited.rest('GET', '/api/game-types')).status).toBe(429); // the address's budget
      expect((await limited.rest('GET', '/healthz')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('answers CORS preflights for browser clients', async () => {
    const res = await fetch(`${server.url}/graphql`, {
      method: 'OPTIONS',
      headers: { origin: 'https://client.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://client.example');
    expect(res.headers.get('access-control-allow-headers')).toContain('authorization');
  });

  it('reports health and readiness, and serves the OpenAPI document without /graphql', async () => {
    expect((await server.rest('GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await server.rest('GET', '/readyz')).body).toEqual({ status: 'ready' });
    const doc = await server.rest('GET', '/docs/json');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/api/games', '/api/games/{id}/commands', '/api/games/verify', '/api/game-types']));
    expect(Object.keys(doc.body.paths)).not.toContain('/graphql');
  });

  it('serves GraphiQL only when asked to (development)', async () => {
    expect((await server.rest('GET', '/graphiql')).status).toBe(404);
    const dev = await startTestServer({ graphiql: true });
    try {
      const page = await dev.rest('GET', '/graphiql');
      expect(page.status).toBe(200);
      expect(String(page.body)).toContain('<html');
    } finally {
      await dev.close();
    }
  });

  it('never returns a seed or token hash of a running game', async () => {
    const q = await server.gql(`query($id: ID!) { game(id: $id) { status seed seedCommitment } }`, { id: game.id });
    expect(q.errors).toBeUndefined();
    expect(q.data.game).toMatchObject({ status: 'ACTIVE', seed: null, seedCommitment: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const r = await server.rest('GET', `/api/games/${game.id}`);
    expect(r.status).toBe(200);
    expect(JSON.stringify(r.body)).not.toMatch(/token/i);
    expect(r.body.game.seed).toBeNull();
    // Nor a seat token, its hash or the start of its hash (what a lobby game's row keeps in
    // seats[].token), under whatever key, on any read of the game, to a spectator or to a seat
    // (its own token included): the word "token" above is only one way of leaking it.
    const secrets = Object.values(game.tokens).flatMap((t) => {
      const hash = createHash('sha256').update(t).digest('hex');
      return [t, hash, hash.slice(0, 16)];
    });
    expect(secrets).toHaveLength(6);
    for (const viewer of [undefined, game.tokens.east]) {
      // Each with what shows it is the game's answer: its id, or its first event.
      const reads: [string, string][] = [[`/api/games/${game.id}`, game.id], [`/api/games/${game.id}/events`, '"GameStarted"'], [`/api/games/${game.id}/export`, game.id]];
      // The list of the games of a seat token (a spectator's lists PUBLIC games only).
      if (viewer) reads.push(['/api/games?type=guessing-game&first=100', game.id]);
      for (const [path, shows] of reads) {
        const res = await server.rest('GET', path, undefined, viewer);
        expect(res.status, path).toBe(200);
        const text = JSON.stringify(res.body);
        expect(text, path).toContain(shows);
        for (const secret of secrets) expect(text, `${path} to ${viewer ? 'east' : 'a spectator'}`).not.toContain(secret);
      }
    }
  });
});
