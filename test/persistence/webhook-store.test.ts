/**
 * The webhook store's statements: a fan-out's deliveries with their jobs in one call (a job
 * each mail, each webhook's sender woken once while its gate is open), the gate's close with
 * its row locked first (a delivery stored meanwhile is seen, or opens it again), and an
 * attempt's outcome (the delivery's status, the webhook's failures in a row) in one statement.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookGate } from '../../src/app/planners.ts';
import type { DeliveryJobs } from '../../src/app/ports.ts';
import { openDatabase, type Database } from '../../src/persistence/database.ts';
import { WebhookStore, type NewDelivery } from '../../src/persistence/webhook-store.ts';
import { databaseUrl } from '../support/server.ts';

let db: Database;
let store: WebhookStore;
beforeAll(async () => {
  db = await openDatabase(databaseUrl());
  store = new WebhookStore(db.prisma, db.queryPool);
});
afterAll(async () => db?.close());

async function aWebhook() {
  const playerId = randomUUID();
  await db.prisma.player.create({ data: { id: playerId, name: 'P' } });
  return store.create({ id: randomUUID(), playerId, gameId: null, url: 'https://example.com/hook', events: ['EVENT_APPENDED'], secret: 'sealed' });
}

// Tasks no runner knows, so the jobs stay pending for the test to read.
function testJobs() {
  const task = `test-nobody-${randomUUID().slice(0, 8)}`;
  const jobs: DeliveryJobs = {
    mail: (d) => ({ task, payload: { id: d.id }, maxAttempts: 7, priority: -1 }),
    webhook: (id) => ({ task, payload: { webhookId: id }, key: webhookGate(id), maxAttempts: 1000, priority: -1 }),
  };
  const pending = async () =>
    (await db.pool.query(`SELECT j.payload, j.key, j.priority, j.max_attempts, j.run_at FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = $1 ORDER BY j.id`, [task])).rows;
  const clear = () => db.pool.query('DELETE FROM graphile_worker._private_jobs WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = $1)', [task]);
  return { jobs, pending, clear };
}

const noTimer = { task: 'test-no-timer', payload: {} };

const delivery = (hook: { id: string; playerId: string }, n: number, channel: 'WEBHOOK' | 'MAIL' = 'WEBHOOK'): NewDelivery => ({
  id: `msg_test_${randomUUID()}_${n}`, channel, webhookId: channel === 'WEBHOOK' ? hook.id : null, playerId: hook.playerId, gameId: randomUUID(), event: 'EVENT_APPENDED', seat: null, version: n, body: { n } as never,
});

describe('the webhook store', () => {
  it('writes a fan-out\'s deliveries with a job each mail and one sender a webhook, until its sender settles', async () => {
    const hook = await aWebhook();
    const { jobs, pending, clear } = testJobs();
    const out = [delivery(hook, 1), delivery(hook, 2), delivery(hook, 3, 'MAIL')];
    expect(await store.enqueue(out, jobs)).toEqual(out.map((d) => d.id));
    expect((await pending()).map(({ run_at: _, ...j }) => j)).toEqual([
      { payload: { id: out[2]!.id }, key: null, priority: -1, max_attempts: 7 },
      { payload: { webhookId: hook.id }, key: webhookGate(hook.id), priority: -1, max_attempts: 1000 },
    ]);
    // The stored one is skipped; the webhook's gate is open, so no second sender.
    const d4 = delivery(hook, 4);
    expect(await store.enqueue([out[0]!, d4], jobs)).toEqual([d4.id]);
    expect(await pending()).toHaveLength(2);
    // Oldest first; while some are due the sender goes on.
    expect((await store.sending(hook.id, 10, [])).due.map((d) => d.id)).toEqual([out[0]!.id, out[1]!.id, d4.id]);
    expect(await store.settleWebhook(hook.id, noTimer)).toBe('due');
    // A failed one is due again later: the others go first, and with only it left the gate closes with a timer.
    await store.webhookFailed(out[0]!.id, hook.id, { status: 'PENDING', error: 'answered 500', retryAfterSeconds: 60 });
    expect((await store.sending(hook.id, 10, [])).due.map((d) => d.id)).toEqual([out[1]!.id, d4.id]);
    await store.sending(hook.id, 0, [out[1]!.id, d4.id]);
    expect(await store.settleWebhook(hook.id, { task: jobs.mail(out[0]!).task, payload: { webhookId: hook.id, wake: true }, key: `timer:${hook.id}` })).toBe('waiting');
    const timer = (await pending()).find((j) => j.key === `timer:${hook.id}`);
    expect(timer?.payload).toEqual({ webhookId: hook.id, wake: true });
    expect(timer!.run_at.getTime() - Date.now()).toBeGreaterThan(50_000);
    // Closed: the next delivery wakes a new sender.
    await clear();
    await store.enqueue([delivery(hook, 5)], jobs);
    expect((await pending()).map((j) => j.payload)).toEqual([{ webhookId: hook.id }]);
    await clear();
  });

  it('a fan-out whose deliveries were all stored before opens no gate: the next delivery still wakes a sender', async () => {
    // A fan-out run again (a DEADLINE_SOON job asked for twice, a rerun after a crash) writes
    // nothing; its webhook's gate, closed by the sender meanwhile, must stay closed, or no later
    // delivery adds a sender and they wait for healGates (ten minutes).
    const hook = await aWebhook();
    const { jobs, pending, clear } = testJobs();
    const gate = async () => (await db.pool.query('SELECT open FROM job_gates WHERE key = $1', [webhookGate(hook.id)])).rows[0]?.open;
    const d1 = delivery(hook, 1);
    expect(await store.enqueue([d1], jobs)).toEqual([d1.id]);
    expect(await gate()).toBe(true);
    await store.sending(hook.id, 0, [(await store.sending(hook.id, 1, [])).due[0]!.id]);
    expect(await store.settleWebhook(hook.id, noTimer)).toBe('idle');
    expect(await gate()).toBe(false);
    await clear();
    expect(await store.enqueue([d1], jobs)).toEqual([]);
    expect(await pending()).toEqual([]);
    expect(await gate()).toBe(false);
    const d2 = delivery(hook, 2);
    expect(await store.enqueue([d2], jobs)).toEqual([d2.id]);
    expect((await pending()).map((j) => j.payload)).toEqual([{ webhookId: hook.id }]);
    await clear();
  });

  it('wakes every sender of a fan-out with one NOTIFY, and sends none for mails it has not', async () => {
    // Each jobs:insert NOTIFY makes an idle runner of every lane of every process fetch: an
    // empty add_jobs (no mail) used to send one too, and each woken sender another.
    const [a, b] = [await aWebhook(), await aWebhook()];
    const { jobs, pending, clear } = testJobs();
    const listener = new pg.Client({ connectionString: databaseUrl() });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    try {
      await listener.query('LISTEN "jobs:insert"');
      await store.enqueue([delivery(a, 1), delivery(b, 1), delivery(a, 2)], jobs);
      // A statement after the commit: the notifications sent before it have reached the listener.
      await listener.query('SELECT 1');
      expect((await pending()).map((j) => j.payload)).toEqual([a, b].sort((x, y) => x.id.localeCompare(y.id)).map((h) => ({ webhookId: h.id })));
      expect(heard.map((p) => JSON.parse(p).count)).toEqual([2]);
      // Gates open, nothing to add: no NOTIFY at all.
      heard.length = 0;
      await store.enqueue([delivery(a, 3)], jobs);
      await listener.query('SELECT 1');
      expect(heard).toEqual([]);
    } finally {
      await listener.end();
      await clear();
    }
  });

  it('a delivery stored while the sender settles is seen by it, or opens the gate again', async () => {
    const hook = await aWebhook();
    const { jobs, pending, clear } = testJobs();
    await store.enqueue([delivery(hook, 1)], jobs);
    await store.sending(hook.id, 0, [(await store.sending(hook.id, 1, [])).due[0]!.id]);
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    try {
      // A fan-out's transaction has stored a delivery (not committed yet) and holds the gate's row.
      await client.query('BEGIN');
      await client.query(`INSERT INTO deliveries (id, channel, webhook_id, game_id, event, version, body) VALUES ($1, 'WEBHOOK', $2::uuid, $3::uuid, 'EVENT_APPENDED', 2, '{}')`, [`msg_test_${randomUUID()}`, hook.id, randomUUID()]);
      expect((await client.query('SELECT open_job_gate($1, NULL) AS opened', [webhookGate(hook.id)])).rows[0].opened).toBe(false);
      const settling = store.settleWebhook(hook.id, noTimer);
      await new Promise((r) => setTimeout(r, 300));
      await client.query('COMMIT');
      // The sender's last look came after the lock: it sees the new one and goes on.
      expect(await settling).toBe('due');
      await store.sending(hook.id, 0, (await store.sending(hook.id, 10, [])).due.map((d) => d.id));
      expect(await store.settleWebhook(hook.id, noTimer)).toBe('idle');
      await clear();

      // The other order: the sender holds the gate locked while a fan-out stores one; the fan-out waits, then opens the gate again with a new sender.
      await store.enqueue([delivery(hook, 3)], jobs);
      await clear();
      await store.sending(hook.id, 0, (await store.sending(hook.id, 10, [])).due.map((d) => d.id));
      await client.query('BEGIN');
      await client.query('SELECT 1 FROM job_gates WHERE key = $1 FOR UPDATE', [webhookGate(hook.id)]);
      const d4 = delivery(hook, 4);
      const storing = store.enqueue([d4], jobs);
      await new Promise((r) => setTimeout(r, 300));
      expect(await pending()).toEqual([]);
      await client.query('UPDATE job_gates SET open = false WHERE key = $1', [webhookGate(hook.id)]);
      await client.query('COMMIT');
      expect(await storing).toEqual([d4.id]);
      expect((await pending()).map((j) => j.payload)).toEqual([{ webhookId: hook.id }]);
      await clear();
    } finally {
      await client.end();
    }
  });

  it('records a failed attempt: the delivery\'s status and error, and the webhook\'s failures in a row, reset by a success', async () => {
    const hook = await aWebhook();
    const { jobs, clear } = testJobs();
    const d = delivery(hook, 1);
    await store.enqueue([d], jobs);
    await store.webhookFailed(d.id, hook.id, { status: 'PENDING', error: 'answered 500' });
    await store.webhookFailed(d.id, hook.id, { status: 'PENDING', error: 'answered 502' });
    expect((await store.get(hook.id))?.failures).toBe(2);
    expect(await store.delivery(d.id)).toMatchObject({ status: 'PENDING', attempts: 2, lastError: 'answered 502' });
    await store.sending(hook.id, 0, [d.id]);
    expect((await store.get(hook.id))?.failures).toBe(0);
    expect(await store.delivery(d.id)).toMatchObject({ status: 'DELIVERED', attempts: 3, lastError: 'answered 502' });
    await store.sending(hook.id, 0, [d.id]);
    expect((await store.get(hook.id))?.failures).toBe(0);
    await clear();
  });
  it('records a sender\'s successes with its next read, or with the close of its gate: one statement a batch', async () => {
    const hook = await aWebhook();
    const { jobs, clear } = testJobs();
    const out = [delivery(hook, 1), delivery(hook, 2), delivery(hook, 3)];
    await store.enqueue(out, jobs);
    await store.webhookFailed(out[0]!.id, hook.id, { status: 'PENDING', error: 'answered 500' });
    expect((await store.get(hook.id))?.failures).toBe(1);
    // The read: the webhook with its first due ones.
    const read = await store.sending(hook.id, 2, []);
    expect(read.webhook).toMatchObject({ id: hook.id, url: hook.url, failures: 1, disabledAt: null });
    expect(read.due.map((d) => d.id)).toEqual([out[0]!.id, out[1]!.id]);
    // The next read records those two first, and does not take them for due.
    const next = await store.sending(hook.id, 10, [out[0]!.id, out[1]!.id]);
    expect(next.due.map((d) => d.id)).toEqual([out[2]!.id]);
    expect(await store.delivery(out[0]!.id)).toMatchObject({ status: 'DELIVERED', attempts: 2, lastError: 'answered 500' });
    expect(await store.delivery(out[1]!.id)).toMatchObject({ status: 'DELIVERED', attempts: 1 });
    expect((await store.get(hook.id))?.failures).toBe(0);
    // The close records the last before its look for work left: none left, so idle, not due.
    expect(await store.settleWebhook(hook.id, noTimer, [out[2]!.id])).toBe('idle');
    expect(await store.delivery(out[2]!.id)).toMatchObject({ status: 'DELIVERED', attempts: 1 });
    // Only the record (limit 0), and a webhook that is gone.
    const d4 = delivery(hook, 4);
    await store.enqueue([d4], jobs);
    expect(await store.sending(hook.id, 0, [d4.id])).toMatchObject({ due: [] });
    expect(await store.delivery(d4.id)).toMatchObject({ status: 'DELIVERED', attempts: 1 });
    await store.delete(hook.playerId, hook.id);
    expect(await store.sending(hook.id, 10, [])).toEqual({ webhook: null, due: [] });
    await clear();
  });
});
