/**
 * A client's mistake is a 400 BAD_REQUEST that says what is wrong, never a 500 INTERNAL:
 * numbers past what the store counts, crafted cursors, NUL characters (PostgreSQL's text
 * cannot hold them), GraphQL requests of the wrong shape or media type, a subscription over
 * HTTP, and verify documents that are not exports. Nothing is stored in any case.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TOKENS } from '../../src/domain/raid-on-wuchao/data.ts';
import { createGuessingGame, SUBMIT } from '../support/client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let game: { id: string; tokens: Record<string, string> };
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000 });
  game = await createGuessingGame(server);
});
afterAll(async () => server?.close());

const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A 400 BAD_REQUEST whose message matches `message`, on REST or GraphQL. */
function badRequest(r: { status: number; body?: any; errors?: any[] }, message: RegExp, status = 400) {
  expect(r.status, JSON.stringify(r.body ?? r.errors)).toBe(status);
  const error = r.body?.error ?? r.body?.errors?.[0] ?? r.errors?.[0];
  expect(error?.extensions?.code ?? error?.code, JSON.stringify(error)).toBe('BAD_REQUEST');
  expect(error.message).toMatch(message);
}

async function unchanged() {
  const r = await server.rest('GET', `/api/games/${game.id}/events`);
  expect(r.body.events.map((e: { version: number }) => e.version)).toEqual([1]);
}

describe('a client\'s mistake is a 400 that says what is wrong', () => {
  it('events?after= past the largest version the store counts', async () => {
    for (const after of ['2147483648', '99999999999']) {
      badRequest(await server.rest('GET', `/api/games/${game.id}/events?after=${after}`), /after/);
    }
    expect((await server.rest('GET', `/api/games/${game.id}/events?after=2147483647`)).status).toBe(200);
  });

  it('a crafted cursor: an id that is not a UUID, a date before any game', async () => {
    for (const after of [cursor(['2026-01-01T00:00:00.000Z', 'not-a-uuid']), cursor(['0000-01-01T00:00:00.000Z', '00000000-0000-4000-8000-000000000000']), cursor({ a: 1 }), cursor(null)]) {
      badRequest(await server.rest('GET', `/api/games?after=${after}`), /cursor/);
      const q = await server.gql('query($a: String) { games(after: $a) { nodes { id } } }', { a: after });
      badRequest(q, /cursor/);
    }
  });

  it('a NUL character in an idempotency key, a seat name or an option', async () => {
    const c = { type: 'guess', number: 1 };
    badRequest(await server.rest('POST', `/api/games/${game.id}/commands`, { command: c, idempotencyKey: 'a\u0000b' }, game.tokens.north), /idempotency key/i);
    badRequest(await server.gql(SUBMIT, { id: game.id, c, k: 'x\u0000' }, game.tokens.north), /idempotency key/i);
    await unchanged();
    badRequest(await server.rest('POST', '/api/games', { type: 'guessing-game', seats: [{ seat: 'north', name: 'A\u0000' }, { seat: 'east', name: 'B' }] }), /name/);
    const tokens = DEFAULT_TOKENS.map((t, i) => (i === 0 ? { ...t, name: `${t.name}\u0000` } : t));
    badRequest(await server.rest('POST', '/api/games', { type: 'raid-on-wuchao', options: { tokens }, seats: [{ seat: 'cao', name: 'A' }, { seat: 'yuan', name: 'B' }] }), /NUL/);
    const q = await server.gql('mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } } }', { i: { type: 'guessing-game', seats: [{ seat: 'north', name: '\u0000' }, { seat: 'east', name: 'B' }] } });
    badRequest(q, /name/);
  });

  it('a GraphQL request whose query is not a string, or whose variables are not an object', async () => {
    for (const body of [{ query: 5 }, { query: null }, {}, { query: '{ gameTypes { id } }', variables: 'x' }, { query: '{ gameTypes { id } }', operationName: 7 }, [1], 'x']) {
      const r = await server.rest('POST', '/graphql', JSON.stringify(body));
      badRequest(r, /query|variables|operationName|object/);
    }
  });

  it('/graphql with a form, multipart, XML or another non-JSON body', async () => {
    const bodies: [string, string][] = [
      ['application/x-www-form-urlencoded', 'query=%7B%20gameTypes%20%7B%20id%20%7D%20%7D'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="query"\r\n\r\n{ gameTypes { id } }\r\n--x--\r\n'],
      ['application/xml', '<query>{ gameTypes { id } }</query>'],
      ['text/plain', '{ gameTypes { id } }'],
    ];
    for (const [type, body] of bodies) {
      const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': type }, body });
      const json = (await res.json()) as { errors: { message: string; extensions: { code: string } }[] };
      expect(res.status, type).toBe(415);
      expect(json.errors[0]!.extensions.code, type).toBe('BAD_REQUEST');
      expect(json.errors[0]!.message).toMatch(/application\/json/);
    }
  });

  it('a subscription sent over HTTP POST', async () => {
    const r = await server.gql('subscription($id: ID!) { gameEvents(gameId: $id) { version } }', { id: game.id });
    badRequest(r, /WebSocket/);
  });

  it('verify with a seed that is not a string, or malformed players', async () => {
    const g = await createGuessingGame(server);
    await server.rest('POST', `/api/games/${g.id}/resign`, undefined, g.tokens.north);
    const doc = (await server.rest('GET', `/api/games/${g.id}/export`)).body;
    expect((await server.rest('POST', '/api/games/verify', doc)).body).toMatchObject({ valid: true });
    const broken: [string, (d: any) => void, RegExp][] = [
      ['seed a number', (d) => (d.game.seed = 5), /seed/],
      ['seed an object', (d) => (d.game.seed = { a: 1 }), /seed/],
      ['players not a list', (d) => (d.game.players = 'north'), /players/],
      ['a player without a seat', (d) => (d.game.players = [{ name: 'N' }, null]), /players/],
      ['a seat that is a number', (d) => (d.game.players[0].seat = 1), /players/],
      ['events not a list', (d) => (d.events = {}), /events/],
      ['no game', (d) => delete d.game, /game/],
    ];
    for (const [what, spoil, message] of broken) {
      const bad = structuredClone(doc);
      spoil(bad);
      badRequest(await server.rest('POST', '/api/games/verify', bad), message);
      void what;
    }
    badRequest(await server.rest('POST', '/api/games/verify', { hello: 1 }), /export/);
    // A well-formed export that does not verify is still an answer, not an error.
    const running = await server.rest('GET', `/api/games/${game.id}/export`);
    expect((await server.rest('POST', '/api/games/verify', running.body)).body).toMatchObject({ valid: false, reason: expect.stringContaining('finished') });
  });
});
