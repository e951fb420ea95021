/**
 * The webhook store's statements for the notifications' dispatcher, on a database of this
 * file's own (other files' dispatchers would move its mark, hold its lease and send its
 * deliveries): a fan-out's deliveries with a job each new mail and the mark moved on (never
 * back); the outbox's tail in the order of the writing transactions, none of a transaction
 * still running nor after it, with whether anyone listens; the read of what is due to send,
 * recording the successes first; an attempt's failure; the one-at-a-time lease; and that the
 * dispatcher's two reads keep one generic plan a connection (statements.ts, `opaque`).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryJobs, TailEntry } from '../../src/app/ports.ts';
import { openDatabase, type Database } from '../../src/persistence/database.ts';
import { WebhookStore, type NewDelivery } from '../../src/persistence/webhook-store.ts';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { plansOf } from '../support/plans.ts';
import { until } from '../support/receivers.ts';

let own: OwnDatabase;
let db: Database;
let store: WebhookStore;
beforeAll(async () => {
  own = await ownDatabase('webhook_store');
  db = await openDatabase(own.url);
  store = new WebhookStore(db.prisma, db.queryPool, own.url);
});
afterAll(async () => {
  await db?.close();
  await own?.drop();
});

async function aPlayer(mail = false) {
  const id = randomUUID();
  await db.prisma.player.create({ data: { id, name: 'P', ...(mail ? { email: `${id}@example.com`, emailVerified: true, notifyByEmail: true } : {}) } });
  return id;
}
async function aGame(playerIds: string[]) {
  const id = randomUUID();
  await db.prisma.game.create({ data: { id, type: 'guessing-game', options: {}, players: [], seedCommitment: 'c', seed: 's', status: 'ACTIVE', playerIds } });
  return id;
}
const aWebhook = async (playerId?: string, gameId: string | null = null) =>
  store.create({ id: randomUUID(), playerId: playerId ?? (await aPlayer()), gameId, url: 'https://example.com/hook', events: ['EVENT_APPENDED'], secret: 'sealed' });

// A task no runner knows, so the jobs stay pending for the test to read.
function testJobs() {
  const task = `test-nobody-${randomUUID().slice(0, 8)}`;
  const jobs: DeliveryJobs = { mail: (d) => ({ task, payload: { id: d.id }, maxAttempts: 7, priority: -1 }) };
  const pending = async () =>
    (await db.pool.query(`SELECT j.payload, j.key, j.priority, j.max_attempts FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = $1 ORDER BY j.id`, [task])).rows;
  return { jobs, pending };
}

const delivery = (hook: { id: string; playerId: string }, n: number, channel: 'WEBHOOK' | 'MAIL' = 'WEBHOOK'): NewDelivery => ({
  id: `msg_test_${randomUUID()}_${n}`, channel, webhookId: channel === 'WEBHOOK' ? hook.id : null, playerId: hook.playerId, gameId: randomUUID(), event: 'EVENT_APPENDED', seat: null, version: n, body: { n } as never,
});

const mark = async () => (await db.pool.query(`SELECT tx::text, id::text FROM outbox_marks WHERE name = 'notify'`)).rows[0];
/** An outbox row of the game, committed (or in the transaction of `via`). */
const put = async (gameId: string, version: number, via: pg.Pool | pg.Client = db.pool) =>
  (await via.query<{ id: string; tx: string }>(`INSERT INTO outbox (game_id, version, kind) VALUES ($1::uuid, $2, 'EVENTS_APPENDED') RETURNING id::text, tx::text`, [gameId, version])).rows[0]!;
const seen = (rows: TailEntry[]) => rows.map((r) => ({ gameId: r.gameId, id: r.id, listened: r.listened }));

describe('the webhook store', () => {
  it('writes deliveries with a job each new mail only, skips the stored ones, and moves the mark forward, never back', async () => {
    const hook = await aWebhook();
    const { jobs, pending } = testJobs();
    const out = [delivery(hook, 1), delivery(hook, 2, 'MAIL'), delivery(hook, 3, 'MAIL')];
    expect(await store.enqueue(out, jobs)).toEqual(out.map((d) => d.id));
    expect(await pending()).toEqual([out[1]!, out[2]!].map((d) => ({ payload: { id: d.id }, key: null, priority: -1, max_attempts: 7 })));
    expect(await store.delivery(out[0]!.id)).toMatchObject({ channel: 'WEBHOOK', webhookId: hook.id, status: 'PENDING', attempts: 0, body: { n: 1 } });
    // The stored ones are skipped, their mail's job not added again.
    const [m4, w5] = [delivery(hook, 4, 'MAIL'), delivery(hook, 5)];
    expect(await store.enqueue([out[1]!, m4, out[0]!, w5], jobs)).toEqual([m4.id, w5.id]);
    expect((await pending()).map((j) => j.payload.id)).toEqual([out[1]!.id, out[2]!.id, m4.id]);

    const start = await mark();
    const { tx } = (await db.pool.query('SELECT pg_current_xact_id()::text AS tx')).rows[0];
    expect(BigInt(tx)).toBeGreaterThan(BigInt(start.tx));
    expect(await store.enqueue([], jobs, { tx, id: '5' })).toEqual([]);
    expect(await mark()).toEqual({ tx, id: '5' });
    // Back (an earlier id, an earlier transaction): the deliveries are written, the mark stays.
    const w6 = delivery(hook, 6);
    expect(await store.enqueue([w6], jobs, { tx, id: '3' })).toEqual([w6.id]);
    await store.enqueue([], jobs, { tx: start.tx, id: '99' });
    expect(await mark()).toEqual({ tx, id: '5' });
    await store.enqueue([delivery(hook, 7)], jobs, { tx, id: '7' });
    expect(await mark()).toEqual({ tx, id: '7' });
    await store.cancelPending(hook.id, 'done'); // none left for the dispatcher's read below
  });

  it('reads the outbox after the mark in the order of its transactions, with whether anyone listens to each row\'s game', async () => {
    const [p1, p2, p3, p4, outsider] = [await aPlayer(), await aPlayer(), await aPlayer(true), await aPlayer(), await aPlayer()];
    const [onGame, byPlayer, byMail, nobody] = [await aGame([p1]), await aGame([p2]), await aGame([p3]), await aGame([p4, randomUUID()])];
    await aWebhook(outsider, onGame); // a webhook on the game, of a player not in it
    await aWebhook(p2); // a player-wide webhook of one of its players
    const disabled = await aWebhook(p3);
    await store.disable(disabled.id, 'test');
    await aWebhook(p4, onGame); // on another game: not on this one
    await aWebhook(outsider); // player-wide, of a player not in it
    const games = [byMail, onGame, nobody, byPlayer, onGame, randomUUID() /* no games row */];
    const rows: { id: string; tx: string }[] = [];
    for (const [i, g] of games.entries()) rows.push(await put(g, i + 1));
    const want = (mail: boolean) => games.map((gameId, i) => ({ gameId, id: rows[i]!.id, listened: gameId === onGame || gameId === byPlayer || (mail && gameId === byMail) }));
    await expect.poll(async () => seen(await store.tail(100, false))).toEqual(want(false));
    expect(seen(await store.tail(100, true))).toEqual(want(true));
    const two = await store.tail(2, false);
    expect(two.map((r) => r.mark)).toEqual(rows.slice(0, 2).map((r) => ({ tx: r.tx, id: r.id })));
    expect(two[0]).toMatchObject({ version: 1, kind: 'EVENTS_APPENDED', seat: null, data: {} });
    await store.enqueue([], testJobs().jobs, two[1]!.mark);
    expect(seen(await store.tail(100, false))).toEqual(want(false).slice(2));
    await store.enqueue([], testJobs().jobs, { tx: rows[5]!.tx, id: rows[5]!.id });
    expect(await store.tail(100, false)).toEqual([]);
  });

  it('reads the webhooks listening to many games in one call: on the game, or player-wide of one of its players, enabled', async () => {
    const [p1, p2, outsider] = [await aPlayer(), await aPlayer(), await aPlayer()];
    const [g1, g2, g3] = [await aGame([p1]), await aGame([p1, p2]), await aGame([])];
    const onG1 = await aWebhook(outsider, g1);
    const ofP1 = await aWebhook(p1);
    const ofP2 = await aWebhook(p2);
    const off = await aWebhook(p2, g2);
    await store.disable(off.id, 'test');
    await aWebhook(outsider); // player-wide, of a player in none of them
    const sorted = (...hooks: { id: string }[]) => hooks.map((h) => h.id).sort();
    const got = await store.listening([{ id: g1, playerIds: [p1] }, { id: g2, playerIds: [p1, p2] }, { id: g3, playerIds: [] }]);
    expect([...got.keys()]).toEqual([g1, g2, g3]);
    expect(got.get(g1)!.map((w) => w.id)).toEqual(sorted(onG1, ofP1));
    expect(got.get(g2)!.map((w) => w.id)).toEqual(sorted(ofP1, ofP2));
    expect(got.get(g3)).toEqual([]);
    expect(got.get(g1)![0]).toMatchObject({ url: 'https://example.com/hook', events: ['EVENT_APPENDED'], secret: 'sealed', disabledAt: null });
    expect(await store.listening([])).toEqual(new Map());
  });

  it('reads no row of a transaction still running, nor any committed after it began, until it ends', async () => {
    const [a, b] = [await aGame([]), await aGame([])];
    const r1 = await put(a, 1);
    const open = new pg.Client({ connectionString: own.url });
    await open.connect();
    try {
      await open.query('BEGIN');
      const xid = BigInt((await open.query('SELECT pg_current_xact_id()::text AS x')).rows[0].x);
      const r2 = await put(b, 1);
      expect(BigInt(r2.tx)).toBeGreaterThan(xid);
      // The row before it is read; the later one, committed, is not while the transaction runs.
      await expect.poll(async () => (await store.tail(100, false)).map((r) => r.id)).toEqual([r1.id]);
      const r3 = await put(a, 2, open);
      expect((await store.tail(100, false)).map((r) => r.id)).toEqual([r1.id]);
      await open.query('COMMIT');
      // Its row comes before the later transaction's, though written after it.
      expect(BigInt(r3.tx)).toBe(xid);
      expect(BigInt(r3.id)).toBeGreaterThan(BigInt(r2.id));
      await expect.poll(async () => (await store.tail(100, false)).map((r) => r.id)).toEqual([r1.id, r3.id, r2.id]);
    } finally {
      await open.end();
    }
  });

  it('reads the webhooks\' deliveries due, oldest first, a few a webhook, after recording the successes it is given', async () => {
    const [a, b, c] = [await aWebhook(), await aWebhook(), await aWebhook()];
    const { jobs } = testJobs();
    const [a1, b1, a2, m1, c1, a3] = [delivery(a, 1), delivery(b, 1), delivery(a, 2), delivery(a, 3, 'MAIL'), delivery(c, 1), delivery(a, 4)];
    await store.enqueue([a1, b1, a2, m1, c1, a3], jobs);
    const ids = (rows: Awaited<ReturnType<WebhookStore['sendable']>>) => rows.map((r) => r.delivery.id);
    // Two a webhook, never a mail.
    const all = await store.sendable(10, 2, [], []);
    expect(ids(all)).toEqual([a1.id, b1.id, a2.id, c1.id]);
    expect(all[0]).toMatchObject({ delivery: { status: 'PENDING', attempts: 0, webhookId: a.id }, webhook: { id: a.id, url: a.url, failures: 0, disabledAt: null } });
    expect(all.map((r) => r.webhook?.id)).toEqual([a.id, b.id, a.id, c.id]);
    expect(ids(await store.sendable(3, 2, [], []))).toEqual([a1.id, b1.id, a2.id]);
    expect(ids(await store.sendable(10, 2, [b.id], []))).toEqual([a1.id, a2.id, c1.id]);
    // The successes are recorded first, and not read as due.
    expect(ids(await store.sendable(10, 2, [], [a1.id, a2.id]))).toEqual([b1.id, c1.id, a3.id]);
    expect(await store.delivery(a1.id)).toMatchObject({ status: 'DELIVERED', attempts: 1 });
    // A failed one waits its time.
    await store.webhookFailed(a3.id, a.id, { status: 'PENDING', error: 'answered 503', retryAfterSeconds: 60 });
    expect(ids(await store.sendable(10, 2, [], []))).toEqual([b1.id, c1.id]);
    // A disabled webhook's deliveries come with it as it is now, until they are cancelled.
    await store.disable(c.id, 'test');
    expect((await store.sendable(10, 2, [], [])).find((r) => r.delivery.id === c1.id)?.webhook).toMatchObject({ id: c.id, disabledAt: expect.any(Date), disabledReason: 'test' });
    expect(await store.cancelPending(c.id, 'disabled')).toBe(1);
    // Only the record (limit 0).
    expect(await store.sendable(0, 2, [], [b1.id])).toEqual([]);
    expect(await store.delivery(b1.id)).toMatchObject({ status: 'DELIVERED', attempts: 1 });
    expect(await store.sendable(10, 2, [], [])).toEqual([]);
    expect(await store.delivery(c1.id)).toMatchObject({ status: 'CANCELLED', lastError: 'disabled' });
  });

  it('records a failed attempt: the delivery\'s status and error, and the webhook\'s failures in a row, reset by a success', async () => {
    const hook = await aWebhook();
    const d = delivery(hook, 1);
    await store.enqueue([d], testJobs().jobs);
    expect(await store.webhookFailed(d.id, hook.id, { status: 'PENDING', error: 'answered 500' })).toMatchObject({ failures: 1 });
    expect(await store.webhookFailed(d.id, hook.id, { status: 'PENDING', error: 'answered 502' })).toMatchObject({ failures: 2 });
    expect((await store.get(hook.id))?.failures).toBe(2);
    expect(await store.delivery(d.id)).toMatchObject({ status: 'PENDING', attempts: 2, lastError: 'answered 502' });
    await store.sendable(0, 1, [], [d.id]);
    expect((await store.get(hook.id))?.failures).toBe(0);
    expect((await db.pool.query('SELECT failing_since FROM webhooks WHERE id = $1', [hook.id])).rows[0].failing_since).toBeNull();
    expect(await store.delivery(d.id)).toMatchObject({ status: 'DELIVERED', attempts: 3, lastError: 'answered 502' });
    // Recorded once: a second record of the same success changes nothing.
    await store.sendable(0, 1, [], [d.id]);
    expect(await store.delivery(d.id)).toMatchObject({ status: 'DELIVERED', attempts: 3 });
  });

  it('leases the dispatch to one holder at a time, and says when the hold is lost', async () => {
    const first = await store.lease();
    expect(first).not.toBeNull();
    expect(await store.lease()).toBeNull();
    await first!.release();
    const second = await store.lease();
    expect(second).not.toBeNull();
    let lost = false;
    void second!.lost.then(() => (lost = true));
    try {
      expect(await store.lease()).toBeNull();
      expect(lost).toBe(false);
      const holders = await db.pool.query(`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`);
      expect(holders.rows).toHaveLength(1);
      await db.pool.query('SELECT pg_terminate_backend($1)', [holders.rows[0].pid]);
      await expect.poll(() => lost).toBe(true);
      // Its connection gone, the lock is free.
      await (await until(async () => (await store.lease()) ?? undefined, 10_000, 'the lock freed')).release();
    } finally {
      await second!.release();
    }
  });

  it('plans the dispatcher\'s tail and sendable five times on a connection, then runs their generic plans', async () => {
    // A pool of one connection: pg_prepared_statements shows that session's statements.
    const single = await openDatabase(own.url, () => {}, undefined, { poolSize: 1 });
    try {
      const one = new WebhookStore(single.prisma, single.queryPool, own.url);
      // Deliveries sent long ago, as a running service holds them: with few, the two plans cost alike anyway.
      const hook = await aWebhook();
      await db.pool.query(
        `INSERT INTO deliveries (id, channel, webhook_id, player_id, game_id, event, version, body, status)
         SELECT 'msg_sent_' || n, 'WEBHOOK', $1::uuid, $2::uuid, gen_random_uuid(), 'EVENT_APPENDED', n, '{}', 'DELIVERED' FROM generate_series(1, 20000) n`,
        [hook.id, hook.playerId],
      );
      await db.pool.query('ANALYZE deliveries');
      // As the dispatcher asks: no mail, and a few successes to record (the generic plan guesses ten).
      for (let i = 0; i < 12; i++) {
        await one.tail(100, false);
        await one.sendable(32, 8, [randomUUID()], Array.from({ length: 1 + (i % 3) }, (_, n) => `msg_none_${i}_${n}`));
      }
      expect(await plansOf(single.queryPool, '%FROM outbox_marks m, LATERAL%')).toEqual([{ generic: 7, custom: 5 }]);
      expect(await plansOf(single.queryPool, '%UPDATE deliveries SET status = \'DELIVERED\'%')).toEqual([{ generic: 7, custom: 5 }]);
    } finally {
      await single.close();
    }
  });
});
