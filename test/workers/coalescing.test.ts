/**
 * Coalesced notifications (issue 27.3) on the real database and queue: a game's commits share
 * one fan-out job at a time and a webhook's deliveries one sender at a time (their gates).
 * Many commits in a row: every delivery arrives once, in order, never two of a webhook in
 * flight at once. A delivery stored while the webhook's sender runs is sent by it. A sender
 * that dies mid-run leaves what it had not recorded to the next, which sends only those. Jobs
 * of the release before (a notify job of one commit, a webhook job of one delivery) still work.
 * A gate whose job is gone (removed by hand) is given one again after a while, once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryRecord } from '../../src/app/ports.ts';
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

describe('coalesced notifications', () => {
  it('many commits in a row: each delivery arrives once, in order, one in flight per webhook', async () => {
    const g = await game(server, 2);
    const versions: number[] = [];
    for (let i = 0; i < 40; i++) versions.push(await g.play());
    for (const path of g.paths) {
      const mine = await until(() => {
        const m = receiver.got.filter((r) => r.path === path);
        return m.length >= versions.length && m;
      }, 60_000, `the deliveries to ${path}`);
      await new Promise((r) => setTimeout(r, 500)); // nothing more comes
      const all = receiver.got.filter((r) => r.path === path);
      expect(all.map((r) => r.body.version)).toEqual(versions);
      expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
      expect(mine.every((r) => r.body.type === 'EVENT_APPENDED' && r.body.gameId === g.id)).toBe(true);
    }
    expect(receiver.most()).toBe(1);
    // Every gate is closed again.
    const { rows } = await pool.query<{ key: string; open: boolean }>(`SELECT key, open FROM job_gates WHERE key = ANY($1::text[])`, [[`notify:${g.id}`, ...g.webhookIds.map((id) => `webhook:${id}`)]]);
    expect(rows.map((r) => r.open)).toEqual([false, false, false]);
  });

  it('sends a delivery stored while the webhook\'s sender runs, in the same run', async () => {
    const g = await game(quiet, 1);
    const notifications = quiet.core.notifications;
    const versions = [await g.play()];
    await notifications.fanOut(g.id, 0, '', true);
    const sent: number[] = [];
    const send = async (_w: unknown, _s: string, d: DeliveryRecord) => {
      sent.push(d.version);
      // While this one is in flight the game moves on and is fanned out: the gate is open, so no second sender.
      if (versions.length < 3) {
        versions.push(await g.play());
        await notifications.fanOut(g.id, 0, '', true);
        expect(await senders()).toBe(1);
      }
      return { ok: true };
    };
    const senders = async () => (await quietPool.query(`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = $1 AND key = $2`, [TASKS.webhook, `webhook:${g.webhookIds[0]}`])).rows[0].n;
    expect(await senders()).toBe(1);
    await notifications.webhookTask({ webhookId: g.webhookIds[0] }, send);
    expect(sent).toEqual(versions);
    expect(sent.length).toBe(new Set(sent).size);
    // The gate closed at the end: the next commit's delivery wakes a sender again.
    await g.play();
    await notifications.fanOut(g.id, 0, '', true);
    expect(await senders()).toBe(1);
  });

  it('a sender that dies mid-run: the next one sends again only what was not recorded as sent, with the same webhook-ids', async () => {
    const g = await game(quiet, 1);
    const notifications = quiet.core.notifications;
    const hook = g.webhookIds[0]!;
    const run = (sent: string[], dieAfter = Infinity) =>
      notifications.webhookTask({ webhookId: hook }, async (_w, _s, d) => {
        if (sent.length === dieAfter) throw new Error('the process died'); // this POST never made
        sent.push(d.id);
        return { ok: true };
      });
    for (let i = 0; i < 3; i++) await g.play();
    await notifications.fanOut(g.id, 0, '', true);
    const recorded: string[] = [];
    await run(recorded); // a whole run: its successes recorded as it ended
    expect(recorded).toHaveLength(3);
    for (let i = 0; i < 5; i++) await g.play();
    await notifications.fanOut(g.id, 0, '', true);
    const first: string[] = [];
    await expect(run(first, 2)).rejects.toThrow('the process died');
    // The batch's successes are recorded with the next read or at the run's end: the dead run recorded none.
    const second: string[] = [];
    await run(second);
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(5);
    expect(second.slice(0, 2)).toEqual(first); // the same deliveries again: the same webhook-ids
    expect(second.some((id) => recorded.includes(id))).toBe(false); // what was recorded is not sent again
    const stored = await quiet.core.ports.webhooks.deliveries(hook, 50);
    expect(stored).toHaveLength(8);
    expect(stored.map((d) => [d.status, d.attempts])).toEqual(stored.map(() => ['DELIVERED', 1]));
  });

  it('a job that closes its gate gives up its key: the commit that opens the gate again never waits on the finished job\'s row', async () => {
    const g = await game(quiet, 1);
    const notifications = quiet.core.notifications;
    const notify = `notify:${g.id}`;
    const hook = `webhook:${g.webhookIds[0]}`;
    // As graphile-worker does when it fetches a job: locked, one attempt counted.
    const fetched = async (key: string) =>
      (await quietPool.query(`UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'test', attempts = attempts + 1 WHERE key = $1 RETURNING id`, [key])).rows[0].id as string;
    const row = async (id: string) => (await quietPool.query(`SELECT key, attempts, max_attempts FROM graphile_worker._private_jobs WHERE id = $1`, [id])).rows[0];
    await g.play();
    const fanOut = await fetched(notify);
    await notifications.fanOut(g.id, 0, '', true); // fans out, then closes the game's gate
    const sender = await fetched(hook);
    await notifications.webhookTask({ webhookId: g.webhookIds[0] }, async () => ({ ok: true })); // sends, then closes the webhook's gate
    for (const id of [fanOut, sender]) {
      const r = await row(id);
      expect(r.key).toBeNull(); // given up: done, only waiting for graphile-worker's DELETE
      expect(r.attempts).toBe(r.max_attempts); // and not run again if its process dies first
    }
    // graphile-worker's batched DELETE holds the finished jobs' rows: the next commit opens the gates again without waiting for it.
    const client = new pg.Client({ connectionString: quietUrl });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT 1 FROM graphile_worker._private_jobs WHERE id = ANY($1::bigint[]) FOR UPDATE', [[fanOut, sender]]);
      const played = await Promise.race([g.play().then(() => 'played'), new Promise((r) => setTimeout(() => r('waited'), 3000))]);
      expect(played).toBe('played');
      await notifications.fanOut(g.id, 0, '', true);
      const { rows } = await quietPool.query(`SELECT id::text, key FROM graphile_worker._private_jobs WHERE key = ANY($1::text[]) ORDER BY key`, [[notify, hook]]);
      expect(rows.map((r) => r.key).sort()).toEqual([notify, hook].sort()); // new jobs, keyed by their gates
      expect(rows.some((r) => r.id === fanOut || r.id === sender)).toBe(false);
    } finally {
      await client.query('COMMIT').catch(() => {});
      await client.end();
    }
  });

  it('takes the jobs of the release before: a notify job of one commit, a webhook job of one delivery', async () => {
    const g = await game(quiet, 1);
    const notifications = quiet.core.notifications;
    const hook = g.webhookIds[0]!;
    const version = await g.play();
    // An old notify job (no gate): its one commit's deliveries, written once.
    const written = await notifications.fanOut(g.id, version, 'ACTIVE');
    expect(written).toHaveLength(1);
    expect(await notifications.fanOut(g.id, version, 'ACTIVE')).toEqual([]);
    const senders = async () => (await quietPool.query(`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = $1 AND key = $2`, [TASKS.webhook, `webhook:${hook}`])).rows[0].n;
    expect(await senders()).toBe(1);
    const sent: string[] = [];
    await notifications.webhookTask({ webhookId: hook }, async (_w, _s, d) => (sent.push(d.id), { ok: true }));
    expect(sent).toEqual(written);
    await quietPool.query(`DELETE FROM graphile_worker._private_jobs WHERE key = $1`, [`webhook:${hook}`]);
    expect(await senders()).toBe(0);
    // An old webhook job names a pending delivery (stored before this release): it wakes the webhook's sender.
    const old = `msg_old_${randomUUID()}`;
    await quietPool.query(`INSERT INTO deliveries (id, channel, webhook_id, game_id, event, version, body) VALUES ($1, 'WEBHOOK', $2::uuid, $3::uuid, 'EVENT_APPENDED', $4, '{}')`, [old, hook, g.id, version]);
    await notifications.webhookTask({ id: old }, async () => { throw new Error('an old job sends nothing itself'); });
    expect(await senders()).toBe(1);
    await notifications.webhookTask({ webhookId: hook }, async (_w, _s, d) => (sent.push(d.id), { ok: true }));
    expect(sent).toEqual([...written, old]);
  });
  it('a gate whose job is gone is given one again after ten minutes (healGates), once, and nothing is lost', async () => {
    const g = await game(quiet, 1);
    const notifications = quiet.core.notifications;
    const notify = `notify:${g.id}`;
    const hook = `webhook:${g.webhookIds[0]}`;
    const jobsOf = async (key: string) => (await quietPool.query(`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = $1`, [key])).rows[0].n as number;
    const backdate = (key: string) => quietPool.query(`UPDATE job_gates SET opened_at = now() - interval '11 minutes' WHERE key = $1`, [key]);
    const v1 = await g.play();
    expect(await jobsOf(notify)).toBe(1);
    // Removed by hand: the gate stays open, so the next commit adds no job of its own.
    await quietPool.query(`DELETE FROM graphile_worker._private_jobs WHERE key = $1`, [notify]);
    const v2 = await g.play();
    expect(await jobsOf(notify)).toBe(0);
    expect(await notifications.healGates()).not.toContain(notify); // open for less than ten minutes
    await backdate(notify);
    expect(await notifications.healGates()).toContain(notify);
    expect(await jobsOf(notify)).toBe(1);
    expect(await notifications.healGates()).not.toContain(notify); // it has its job again
    await notifications.fanOut(g.id, 0, '', true);
    // The webhook's sender too; two processes healing at once give it one job.
    expect(await jobsOf(hook)).toBe(1);
    await quietPool.query(`DELETE FROM graphile_worker._private_jobs WHERE key = $1`, [hook]);
    await backdate(hook);
    const [a, b] = await Promise.all([notifications.healGates(), notifications.healGates()]);
    expect([...a, ...b].filter((k) => k === hook)).toEqual([hook]);
    expect(await jobsOf(hook)).toBe(1);
    const sent: number[] = [];
    await notifications.webhookTask({ webhookId: g.webhookIds[0] }, async (_w, _s, d) => (sent.push(d.version), { ok: true }));
    expect(sent).toEqual([v1, v2]);
  });

  it('a fan-out run again, its deliveries all stored before, leaves no webhook gate open without its sender', async () => {
    const p = await quiet.gql(`mutation($n: String!) { registerPlayer(input: { name: $n }) { token } }`, { n: 'Ada' });
    const token = p.data.registerPlayer.token as string;
    const g = await quiet.gql(`mutation { createGame(input: { type: "guessing-game", options: { target: 1000000 }, seats: [{ seat: "north", me: true }, { seat: "east", name: "east" }] }) { game { id } } }`, {}, token);
    const id = g.data.createGame.game.id as string;
    const h = await quiet.gql(`mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { webhook { id } } }`, { i: { url: `${receiver.url}/${randomUUID()}`, events: ['DEADLINE_SOON'], gameId: id } }, token);
    const hook = h.data.createWebhook.webhook.id as string;
    const gate = `webhook:${hook}`;
    const open = async () => (await quietPool.query(`SELECT open FROM job_gates WHERE key = $1`, [gate])).rows[0]?.open as boolean | undefined;
    const senders = async () => (await quietPool.query(`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = $1`, [gate])).rows[0].n as number;
    const n = quiet.core.notifications;
    const deadline = new Date(Date.now() + 3_600_000);
    expect(await n.fanOutDeadline(id, 'north', 1, deadline)).toHaveLength(1);
    expect([await open(), await senders()]).toEqual([true, 1]);
    // Its sender sends it and closes the gate; the completion deletes the job's row.
    const sent: number[] = [];
    await n.webhookTask({ webhookId: hook }, async (_w, _s, d) => (sent.push(d.version), { ok: true }));
    await quietPool.query(`DELETE FROM graphile_worker._private_jobs WHERE key = $1`, [gate]);
    expect([sent, await open(), await senders()]).toEqual([[1], false, 0]);
    // The warning's job run again (its completion lost, say): nothing new written, the gate stays shut.
    expect(await n.fanOutDeadline(id, 'north', 1, deadline)).toEqual([]);
    expect([await open(), await senders()]).toEqual([false, 0]);
    // So the next warning opens it with its sender, and goes out.
    expect(await n.fanOutDeadline(id, 'north', 2, deadline)).toHaveLength(1);
    expect([await open(), await senders()]).toEqual([true, 1]);
    await n.webhookTask({ webhookId: hook }, async (_w, _s, d) => (sent.push(d.version), { ok: true }));
    expect(sent).toEqual([1, 2]);
  });

  it('a fan-out that closed its gate but whose completion was lost leaves no row for good (healGates removes it)', async () => {
    const g = await game(quiet, 1);
    const notify = `notify:${g.id}`;
    await g.play();
    const row = async () => (await quietPool.query(`SELECT id, key, attempts, max_attempts FROM graphile_worker._private_jobs WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'notify') AND payload->>'gameId' = $1`, [g.id])).rows;
    const [job] = await row();
    expect(job).toMatchObject({ key: notify });
    // Taken by a runner (as get_job does), run, its gate closed; graphile-worker's completion, which deletes the row, never comes.
    await quietPool.query(`UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'lost', attempts = attempts + 1 WHERE id = $1`, [job.id]);
    await quiet.core.notifications.fanOut(g.id, 0, '', true);
    expect(await row()).toEqual([expect.objectContaining({ id: job.id, key: null, attempts: job.max_attempts })]);
    // A job that failed (its last_error) is the operator's to see: left alone, as is the row while it may still be completed.
    const failed = (await quietPool.query(`SELECT (graphile_worker.add_job('notify', json_build_object('gameId', $1::text), max_attempts => 1)).id`, [randomUUID()])).rows[0].id;
    await quietPool.query(`UPDATE graphile_worker._private_jobs SET attempts = 1, last_error = 'it failed' WHERE id = $1`, [failed]);
    await quiet.core.notifications.healGates();
    expect(await row()).toHaveLength(1);
    await quietPool.query(`UPDATE graphile_worker._private_jobs SET locked_at = now() - interval '11 minutes' WHERE id = $1`, [job.id]);
    await quiet.core.notifications.healGates();
    expect(await row()).toEqual([]);
    expect((await quietPool.query(`SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE id = $1`, [failed])).rows[0].n).toBe(1);
    await quietPool.query(`DELETE FROM graphile_worker._private_jobs WHERE id = $1`, [failed]);
    // The gate is closed, so the next commit opens it with a job of its own.
    await g.play();
    expect(await row()).toEqual([expect.objectContaining({ key: notify })]);
  });
});
