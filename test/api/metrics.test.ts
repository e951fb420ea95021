/**
 * GET /metrics in Prometheus' text format, and request ids that follow a request through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metrics } from '../../src/metrics.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

async function scrape(): Promise<string> {
  const res = await fetch(`${server.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one series, e.g. sample(text, 'x_count', { a: '1' }). */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf('}'));
    const got = Object.fromEntries([...body.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v) && Object.keys(got).length === Object.keys(labels).length) {
      return Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return undefined;
}

describe('GET /metrics', () => {
  it('counts requests by route pattern and status, with latency', async () => {
    const before = sample(await scrape(), 'http_request_duration_seconds_count', { method: 'GET', route: '/api/games/:id', status_code: '404' }) ?? 0;
    await server.rest('GET', '/api/games/00000000-0000-0000-0000-000000000000');
    await server.rest('GET', '/no/such/route');
    const text = await scrape();
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/games/:id', status_code: '404' })).toBe(before + 1);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status_code: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0\.05",method="GET",route="\/api\/games\/:id",status_code="404"\}/);
    expect(text).not.toContain('00000000-0000'); // ids never become labels
  });

  it('counts GraphQL operations by type and root fields, never by client-chosen names', async () => {
    await server.gql('query MyVeryOwnName { gameTypes { id } }');
    await server.gql('query { b: gameTypes { id } a: gameTypes { name } }');
    await server.gql('query { noSuchField }');
    const text = await scrape();
    expect(
      sample(text, 'graphql_operation_duration_seconds_count', { operation_type: 'query', root_fields: 'gameTypes', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'graphql_operation_duration_seconds_count', { operation_type: 'none', root_fields: '', outcome: 'error' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('MyVeryOwnName');
  });

  it('reports pool use and the commands the command path records, accepted and refused by code', async () => {
    const created = await server.rest('POST', '/api/games', { type: 'guessing-game', seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }] });
    const token = created.body.seatTokens[0].token;
    const id = created.body.game.id;
    expect((await server.rest('POST', `/api/games/${id}/commands`, { command: { type: 'guess', number: 2 } }, token)).status).toBe(200);
    expect((await server.rest('POST', `/api/games/${id}/commands`, { command: { type: 'guess', number: 2 } }, token)).status).toBe(409);
    metrics.subscriptions.inc();
    const text = await scrape();
    metrics.subscriptions.dec();
    expect(sample(text, 'game_commands_total', { game_type: 'guessing-game', outcome: 'accepted' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'game_commands_total', { game_type: 'guessing-game', outcome: 'NOT_YOUR_TURN' })).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^event_append_duration_seconds_count \d+/m);
    expect(text).toMatch(/^graphql_subscriptions_open \d+/m);
    expect(sample(text, 'db_pool_connections', { pool: 'queries', state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'db_pool_connections', { pool: 'notify', state: 'waiting' })).toBe(0);
    expect(text).toMatch(/^process_resident_memory_bytes /m);
  });
});

describe('request ids', () => {
  it('keeps an incoming x-request-id and echoes it', async () => {
    const res = await fetch(`${server.url}/api/game-types`, { headers: { 'x-request-id': 'client-42.a:b' } });
    expect(res.headers.get('x-request-id')).toBe('client-42.a:b');
    const gql = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'gql-7' },
      body: JSON.stringify({ query: '{ gameTypes { id } }' }),
    });
    expect(gql.headers.get('x-request-id')).toBe('gql-7');
  });

  it('makes one when none (or an unusable one) is sent, on errors too', async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const none = await fetch(`${server.url}/no/such/route`);
    expect(none.status).toBe(404);
    expect(none.headers.get('x-request-id')).toMatch(uuid);
    const a = (await fetch(`${server.url}/healthz`)).headers.get('x-request-id');
    const b = (await fetch(`${server.url}/healthz`)).headers.get('x-request-id');
    expect(a).not.toBe(b);
    for (const bad of ['has spaces', 'x'.repeat(129), 'quote"d']) {
      const res = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': bad } });
      expect(res.headers.get('x-request-id')).toMatch(uuid);
    }
  });

  it('lets a browser client send and read it (CORS)', async () => {
    const pre = await fetch(`${server.url}/graphql`, {
      method: 'OPTIONS',
      headers: { origin: 'https://client.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-request-id' },
    });
    expect(pre.headers.get('access-control-allow-headers')).toContain('x-request-id');
    const res = await fetch(`${server.url}/healthz`, { headers: { origin: 'https://client.example' } });
    expect(res.headers.get('access-control-expose-headers')).toContain('x-request-id');
  });
});
