/**
 * HTTP's conventions on REST: event pages say when they were cut and where to go on; a wrong
 * method is 405 with Allow; a game's ETag is its version, and If-Match works as
 * expectedVersion (412 on a mismatch).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuessingGame } from '../support/client.ts';
import { longGuessingGame } from '../support/long-game.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000 });
});
afterAll(async () => server?.close());

const guess = { type: 'guess', number: 1 };

describe('REST event pages', () => {
  it('carry the next cursor and say when they were cut', async () => {
    const { id, tokens } = await createGuessingGame(server);
    await server.rest('POST', `/api/games/${id}/commands`, { command: guess }, tokens.north);
    await server.rest('POST', `/api/games/${id}/commands`, { command: guess }, tokens.east); // 3: guess, 4: roll
    const res = await fetch(`${server.url}/api/games/${id}/events?first=2`);
    const first = (await res.json()) as { events: { version: number }[]; pageInfo: { hasNextPage: boolean; endCursor: number } };
    expect(first.events.map((e) => e.version)).toEqual([1, 2]);
    expect(first.pageInfo).toEqual({ hasNextPage: true, endCursor: 2 });
    expect(res.headers.get('link')).toBe(`</api/games/${id}/events?after=2&first=2>; rel="next"`);
    const rest = await server.rest('GET', `/api/games/${id}/events?after=${first.pageInfo.endCursor}&first=2`);
    expect(rest.body.events.map((e: { version: number }) => e.version)).toEqual([3, 4]);
    expect(rest.body.pageInfo).toEqual({ hasNextPage: false, endCursor: 4 });
    const past = await server.rest('GET', `/api/games/${id}/events?after=4`);
    expect(past.body).toEqual({ events: [], pageInfo: { hasNextPage: false, endCursor: 4 } });
  });

  it('are cut at 1000 events when first is not given, and say so', async () => {
    const id = await longGuessingGame(server.core, 1_200);
    const page = await server.rest('GET', `/api/games/${id}/events`);
    expect(page.body.events).toHaveLength(1000);
    expect(page.body.pageInfo).toEqual({ hasNextPage: true, endCursor: 1000 });
  });
});

describe('a wrong method', () => {
  it('is 405 with Allow, not 404', async () => {
    const { id } = await createGuessingGame(server);
    const del = await fetch(`${server.url}/api/games/${id}`, { method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('GET, HEAD');
    expect(((await del.json()) as { error: { code: string } }).error.code).toBe('METHOD_NOT_ALLOWED');
    const get = await fetch(`${server.url}/api/games/${id}/commands`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const put = await fetch(`${server.url}/graphql`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    // A path no route has is still 404.
    expect((await fetch(`${server.url}/api/nothing`, { method: 'DELETE' })).status).toBe(404);
  });
});

describe('ETag and If-Match', () => {
  it('a game\'s ETag is its version; If-Match works as expectedVersion, 412 on a mismatch', async () => {
    const { id, tokens } = await createGuessingGame(server);
    const res = await fetch(`${server.url}/api/games/${id}`);
    expect(res.headers.get('etag')).toBe('"1"');
    const post = (ifMatch: string, token = tokens.north, body: Record<string, unknown> = { command: guess }) =>
      fetch(`${server.url}/api/games/${id}/commands`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'if-match': ifMatch }, body: JSON.stringify(body) });

    const stale = await post('"0"');
    expect(stale.status).toBe(412);
    expect(stale.headers.get('etag')).toBe('"1"');
    expect(((await stale.json()) as { error: unknown }).error).toMatchObject({ code: 'PRECONDITION_FAILED', currentVersion: 1 });
    expect((await server.rest('GET', `/api/games/${id}`)).body.game.version).toBe(1); // nothing stored

    const ok = await post('"1"');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('etag')).toBe('"2"');
    const star = await post('*', tokens.east);
    expect(star.status).toBe(200);
    expect(star.headers.get('etag')).toBe('"4"');

    const malformed = await post('version 4', tokens.north);
    expect(malformed.status).toBe(400);
    const disagree = await post('"4"', tokens.north, { command: guess, expectedVersion: 3 });
    expect(disagree.status).toBe(400);
    // The body's expectedVersion keeps its 409.
    expect((await server.rest('POST', `/api/games/${id}/commands`, { command: guess, expectedVersion: 1 }, tokens.north)).status).toBe(409);
  });
});
