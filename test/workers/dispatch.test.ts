/**
 * The notifications' dispatcher (issue 27.3, round ten) on the real database and queue: it
 * follows the outbox and sends the webhooks' deliveries, one process at a time. Many commits
 * in a row: every delivery arrives once, in order, never two of a webhook in flight at once.
 * A delivery stored while its webhook is being sent to goes after. A dispatcher that dies
 * mid-send leaves what it had not recorded to the next, which sends only those, with the same
 * webhook-ids. A transaction that began before a commit and ends after it holds the dispatcher
 * back rather than having its rows skipped. Jobs of the release before do no harm.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookSend } from '../../src/app/notifications.ts';
import { TASKS } from '../../src/app/tasks.ts';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { until } from '../support/receivers.ts';
import pg from 'pg';
import { startTestServer, type TestServer } from '../support/server.ts';

/** A receiver that answers after `delayMs` and counts how many POSTs of a path are in flight at once. */
async function slowReceiver(delayMs: number) {
  const got: { path: string; id: string; body: any }[] = [];
  const inFlight = new Map<string, number>();
  let most = 0;
  const server = http.createServer((req, res) => {
    const path = req.url ?? '';
    inFlight.set(path, (inFlight.get(path) ?? 0) + 1);
    most = Math.max(most, inFlight.get(path)!);
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () =>
      setTimeout(() => {
        got.push({ path, id: String(req.headers['webhook-id']), body: JSON.parse(Buffer.concat(chunks).toString()) });
        inFlight.set(path, inFlight.get(path)! - 1);
        res.writeHead(204).end();
      }, delayMs),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, got, most: () => most, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const key = randomBytes(32);
let server: TestServer;
let quiet: TestServer;
let receiver: Awaited<ReturnType<typeof slowReceiver>>;
let pool: pg.Pool;
let quietPool: pg.Pool;
/** The main server's own database: only its runners run its jobs, with its key and settings. */
let db: OwnDatabase;
/** The quiet server's own database. */
let quietDb: OwnDatabase;
let quietUrl: string;
beforeAll(async () => {
  [receiver, db] = await Promise.all([slowReceiver(20), ownDatabase('coalescing')]);
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  // The tasks run by hand on a database of their own: no runner of another server takes their jobs.
  quietDb = await ownDatabase('coalescing');
  quietUrl = quietDb.url;
  quietPool = new pg.Pool({ connectionString: quietUrl, max: 2 });
  [server, quiet] = await Promise.all([
    startTestServer({ databaseUrl: db.url, rateLimit: 100_000, registrationsPerMinute: 10_000, notifications: { allowPrivate: true, secretKey: key }, workers: { pollInterval: 200 } }),
    startTestServer({ databaseUrl: quietUrl, rateLimit: 100_000, registrationsPerMinute: 10_000, notifications: { allowPrivate: true, secretKey: key }, workers: false }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.close(), quiet?.close()]);
  await receiver?.close();
  await pool?.end();
  await quietPool?.end();
  await Promise.all([db?.drop(), quietDb?.drop()]);
});

/** A player's game (north) against a seat token (east), with `hooks` webhooks on EVENT_APPENDED. */
async function game(s: TestServer, hooks: number) {
  const p = await s.gql(`mutation($n: String!) { registerPlayer(input: { name: $n }) { token } }`, { n: 'Ada' });
  const token = p.data.registerPlayer.token as string;
  const g = await s.gql(`mutation { createGame(input: { type: "guessing-game", options: { target: 1000000 }, seats: [{ seat: "north", me: true }, { seat: "east", name: "east" }] }) { game { id } seatTokens { seat token } } }`, {}, token);
  const id = g.data.createGame.game.id as string;
  const paths: string[] = [];
  const ids: string[] = [];
  for (let i = 0; i < hooks; i++) {
    const path = `/${randomUUID()}`;
    const h = await s.gql(`mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { webhook { id } } }`, { i: { url: `${receiver.url}${path}`, events: ['EVENT_APPENDED'], gameId: id } }, token);
    expect(h.errors).toBeUndefined();
    paths.push(path);
    ids.push(h.data.createWebhook.webhook.id);
  }
  const tokens: Record<string, string> = { north: token, east: g.data.createGame.seatTokens[0].token };
  let n = 0;
  const play = async () => {
    const seat = n++ % 2 === 0 ? 'north' : 'east';
    const r = await s.rest('POST', `/api/games/${id}/commands`, { command: { type: 'guess', number: 1 } }, tokens[seat]);
    expect(r.status).toBe(200);
    return r.body.game.version as number;
  };
  return { id, paths, webhookIds: ids, play };
}

/** A dispatcher of the quiet server's (no loop: a test calls `pass`), sending with `send`. */
function dispatcher(send: WebhookSend) {
  return quiet.core.dispatcher({ send });
}
/** One look, and every lane it started run to its end with its successes recorded. */
async function look(d: ReturnType<typeof dispatcher>) {
  await d.pass();
  await d.settle();
}

describe('the notifications\' dispatcher', () => {
  it('many commits in a row: each delivery arrives once, in order, one in flight per webhook', async () => {
    const g = await game(server, 2);
    const versions: number[] = [];
    for (let i = 0; i < 40; i++) versions.push(await g.play());
    for (const path of g.paths) {
      const mine = await until(() => {
        const m = receiver.got.filter((r) => r.path === path);
        return m.length >= versions.length && m;
      }, 60_000, `the deliveries to ${path}`);
      const all = receiver.got.filter((r) => r.path === path);
      expect(all.map((r) => r.body.version)).toEqual(versions);
      expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
      expect(mine.every((r) => r.body.type === 'EVENT_APPENDED' && r.body.gameId === g.id)).toBe(true);
    }
    expect(receiver.most()).toBe(1);
    // Every delivery is recorded as made, and nothing is left pending.
    await until(async () => (await pool.query(`SELECT count(*)::int AS n FROM deliveries WHERE webhook_id = ANY($1::uuid[]) AND status <> 'DELIVERED'`, [g.webhookIds])).rows[0].n === 0, 10_000, 'every delivery recorded');
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM deliveries WHERE webhook_id = ANY($1::uuid[])`, [g.webhookIds]);
    expect(rows[0].n).toBe(2 * versions.length);
  });

  it('sends a delivery stored while its webhook is being sent to, after it, and never two at once', async () => {
    const g = await game(quiet, 1);
    const versions = [await g.play()];
    const sent: number[] = [];
    let inFlight = 0;
    let d: ReturnType<typeof dispatcher>;
    const send: WebhookSend = async (_w, _s, delivery) => {
      expect(++inFlight).toBe(1);
      sent.push(delivery.version);
      // While this one is in flight the game moves on and the dispatcher looks again: the webhook is busy, so no second lane.
      if (versions.length < 3) {
        versions.push(await g.play());
        await d.pass();
      }
      inFlight--;
      return { ok: true };
    };
    d = dispatcher(send);
    await look(d);
    while (sent.length < versions.length) await look(d);
    expect(sent).toEqual(versions);
  });

  it('a dispatcher that dies mid-send: the next sends again only what was not recorded as sent, with the same webhook-ids', async () => {
    const g = await game(quiet, 1);
    const hook = g.webhookIds[0]!;
    const sender = (sent: string[], dieAfter = Infinity): WebhookSend => async (_w, _s, d) => {
      if (sent.length === dieAfter) throw new Error('the process died'); // this POST never made
      sent.push(d.id);
      return { ok: true };
    };
    for (let i = 0; i < 3; i++) await g.play();
    const recorded: string[] = [];
    await look(dispatcher(sender(recorded))); // its successes recorded as it ended
    expect(recorded).toHaveLength(3);
    for (let i = 0; i < 5; i++) await g.play();
    const first: string[] = [];
    const dying = dispatcher(sender(first, 2));
    await dying.pass(); // and never records: it died
    await until(() => first.length === 2, 10_000, 'two sends');
    const second: string[] = [];
    await look(dispatcher(sender(second)));
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(5);
    expect(second.slice(0, 2)).toEqual(first); // the same deliveries again: the same webhook-ids
    expect(second.some((id) => recorded.includes(id))).toBe(false); // what was recorded is not sent again
    const stored = await quiet.core.ports.webhooks.deliveries(hook, 50);
    expect(stored).toHaveLength(8);
    expect(stored.map((d) => [d.status, d.attempts])).toEqual(stored.map(() => ['DELIVERED', 1]));
  });

  it('a transaction that began before a commit and ends after it holds the dispatcher back: its rows are never skipped', async () => {
    const g = await game(quiet, 1);
    const sent: number[] = [];
    const d = dispatcher(async (_w, _s, delivery) => (sent.push(delivery.version), { ok: true }));
    const v1 = await g.play();
    await look(d);
    expect(sent).toEqual([v1]);
    // A transaction with an id older than the next commit's, still running when that commits (a slow commit of another game, say).
    const client = new pg.Client({ connectionString: quietUrl });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_current_xact_id()');
      const v2 = await g.play();
      await look(d);
      expect(sent).toEqual([v1]); // not yet: a row of the older transaction could still come before it
      // It writes a row of the game (as a commit would) and commits: after the newer commit, but before it in the outbox's order.
      await client.query(`INSERT INTO outbox (game_id, version, kind, seat, data) VALUES ($1::uuid, 999, 'EVENTS_APPENDED', NULL, '{}')`, [g.id]);
      await client.query('COMMIT');
      await look(d);
      expect(sent).toEqual([v1, 999, v2]);
    } finally {
      await client.end();
    }
  });

  it('takes over from the release before: its jobs do nothing, its pending deliveries are sent', async () => {
    const g = await game(quiet, 1);
    const hook = g.webhookIds[0]!;
    const version = await g.play();
    const sent: string[] = [];
    const d = dispatcher(async (_w, _s, delivery) => (sent.push(delivery.id), { ok: true }));
    // A delivery stored before this release, and the old jobs that would have sent it: they run and do nothing.
    const old = `msg_old_${randomUUID()}`;
    await quietPool.query(`INSERT INTO deliveries (id, channel, webhook_id, game_id, event, version, body) VALUES ($1, 'WEBHOOK', $2::uuid, $3::uuid, 'EVENT_APPENDED', $4, '{}')`, [old, hook, g.id, version]);
    await look(d);
    expect(sent).toHaveLength(2);
    expect(sent).toContain(old);
    // The old jobs (a commit's fan-out, a webhook's sender) run on a server with workers, and end at once: their work is the dispatcher's.
    const ids = (await pool.query(`SELECT (graphile_worker.add_job($1, $2::json, max_attempts => 1)).id UNION ALL SELECT (graphile_worker.add_job($3, $4::json, max_attempts => 1)).id`, [TASKS.webhook, JSON.stringify({ webhookId: randomUUID() }), TASKS.notify, JSON.stringify({ gameId: randomUUID(), version: 1, status: 'ACTIVE', gated: true })])).rows.map((r) => r.id);
    await until(async () => (await pool.query(`SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE id = ANY($1::bigint[])`, [ids])).rows[0].n === 0, 20_000, 'the old jobs done');
  });

  it('one dispatcher at a time: another process takes over when its holder\'s connection ends', async () => {
    const store = quiet.core.ports.webhooks;
    const held = await store.lease();
    expect(held).not.toBeNull();
    expect(await store.lease()).toBeNull();
    const { rows } = await quietPool.query(`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`);
    expect(rows).toHaveLength(1);
    await quietPool.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
    await held!.lost; // the holder hears it lost the lease
    const next = await until(() => store.lease(), 10_000, 'the lease again');
    await next!.release();
  });

  it('a process beside the holder asks for the lease every two seconds, not at each commit it hears', async () => {
    // Each ask is a session of its own; the sessions opened on the database while commits run count them.
    const beside = await startTestServer({ databaseUrl: db.url, rateLimit: 100_000, registrationsPerMinute: 10_000, notifications: { allowPrivate: true, secretKey: key }, workers: { pollInterval: 200 } });
    try {
      const g = await game(server, 0);
      for (let i = 0; i < 20; i++) await g.play(); // the pools warmed, the holder's lease long taken
      const sessions = async () => {
        await pool.query('SELECT pg_stat_force_next_flush()');
        return Number((await pool.query(`SELECT sessions FROM pg_stat_database WHERE datname = current_database()`)).rows[0].sessions);
      };
      const before = await sessions();
      const started = Date.now();
      for (let i = 0; i < 100; i++) await g.play(); // every commit wakes both processes' dispatchers
      await new Promise((r) => setTimeout(r, 1_500)); // the last sessions ended and counted
      const opened = (await sessions()) - before;
      const seconds = (Date.now() - started) / 1000;
      // One ask every two seconds, and a few pool connections; not one a commit (nor thousands: it once never waited).
      expect(opened).toBeLessThanOrEqual(Math.ceil(seconds / 2) + 10);
    } finally {
      await beside.close();
    }
  });

  it('a warning fanned out twice is sent once', async () => {
    const p = await quiet.gql(`mutation($n: String!) { registerPlayer(input: { name: $n }) { token } }`, { n: 'Ada' });
    const token = p.data.registerPlayer.token as string;
    const g = await quiet.gql(`mutation { createGame(input: { type: "guessing-game", options: { target: 1000000 }, seats: [{ seat: "north", me: true }, { seat: "east", name: "east" }] }) { game { id } } }`, {}, token);
    const id = g.data.createGame.game.id as string;
    await quiet.gql(`mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { webhook { id } } }`, { i: { url: `${receiver.url}/${randomUUID()}`, events: ['DEADLINE_SOON'], gameId: id } }, token);
    const n = quiet.core.notifications;
    const deadline = new Date(Date.now() + 3_600_000);
    const sent: number[] = [];
    const d = dispatcher(async (_w, _s, delivery) => (sent.push(delivery.version), { ok: true }));
    expect(await n.fanOutDeadline(id, 'north', 1, deadline)).toHaveLength(1);
    await look(d);
    // The warning's job run again (its completion lost, say): nothing new written, nothing sent again.
    expect(await n.fanOutDeadline(id, 'north', 1, deadline)).toEqual([]);
    await look(d);
    expect(await n.fanOutDeadline(id, 'north', 2, deadline)).toHaveLength(1);
    await look(d);
    expect(sent).toEqual([1, 2]);
  });
});
