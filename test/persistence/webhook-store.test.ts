/**
 * The webhook store's statements: a fan-out's deliveries with their jobs in one call, and an
 * attempt's outcome (the delivery's status, the webhook's failures in a row) in one statement.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/persistence/database.ts';
import { WebhookStore, type NewDelivery } from '../../src/persistence/webhook-store.ts';
import { databaseUrl } from '../support/server.ts';

let db: Database;
let store: WebhookStore;
beforeAll(async () => {
  db = await openDatabase(databaseUrl());
  store = new WebhookStore(db.prisma);
});
afterAll(async () => db?.close());

async function aWebhook() {
  const playerId = randomUUID();
  await db.prisma.player.create({ data: { id: playerId, name: 'P' } });
  return store.create({ id: randomUUID(), playerId, gameId: null, url: 'https://example.com/hook', events: ['EVENT_APPENDED'], secret: 'sealed' });
}

describe('the webhook store', () => {
  it('writes a fan-out\'s deliveries and their jobs together, and each delivery only once', async () => {
    const hook = await aWebhook();
    // A task no runner knows, so the jobs stay pending for the test to read.
    const task = `test-nobody-${randomUUID().slice(0, 8)}`;
    const delivery = (n: number): NewDelivery => ({ id: `msg_test_${randomUUID()}_${n}`, channel: 'WEBHOOK', webhookId: hook.id, playerId: hook.playerId, gameId: randomUUID(), event: 'EVENT_APPENDED', seat: null, version: n, body: { n } as never });
    const out = [delivery(1), delivery(2), delivery(3)];
    const job = (d: NewDelivery) => ({ task, payload: { id: d.id }, maxAttempts: 7, priority: -1, queueName: `webhook:${d.webhookId}` });
    expect(await store.enqueue(out, job)).toEqual(out.map((d) => d.id));
    expect(await store.enqueue([out[0]!, delivery(4)], job)).toHaveLength(1); // the stored one is skipped, with its job
    const jobs = (await db.pool.query(
      `SELECT j.payload->>'id' AS id, j.priority, j.max_attempts, q.queue_name FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
       LEFT JOIN graphile_worker._private_job_queues q ON q.id = j.job_queue_id WHERE t.identifier = $1 ORDER BY j.id`,
      [task],
    )).rows;
    expect(jobs).toHaveLength(4);
    // One fan-out's jobs in any order; each in its webhook's queue (one in flight per target).
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect(jobs.filter((j) => out.some((d) => d.id === j.id)).sort(byId)).toEqual(out.map((d) => ({ id: d.id, priority: -1, max_attempts: 7, queue_name: `webhook:${hook.id}` })).sort(byId));
    await db.pool.query('DELETE FROM graphile_worker._private_jobs WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = $1)', [task]);
  });

  it('records an attempt: the delivery\'s status and error, and the webhook\'s failures in a row, reset by a success', async () => {
    const hook = await aWebhook();
    const d: NewDelivery = { id: `msg_test_${randomUUID()}`, channel: 'WEBHOOK', webhookId: hook.id, playerId: hook.playerId, gameId: randomUUID(), event: 'EVENT_APPENDED', seat: null, version: 1, body: {} as never };
    await store.enqueue([d], () => ({ task: `test-nobody-${randomUUID().slice(0, 8)}` }));
    await store.webhookAttempted(d.id, hook.id, false, { status: 'PENDING', error: 'answered 500' });
    await store.webhookAttempted(d.id, hook.id, false, { status: 'PENDING', error: 'answered 502' });
    expect((await store.get(hook.id))?.failures).toBe(2);
    expect(await store.delivery(d.id)).toMatchObject({ status: 'PENDING', attempts: 2, lastError: 'answered 502' });
    await store.webhookAttempted(d.id, hook.id, true, { status: 'DELIVERED', error: null });
    expect((await store.get(hook.id))?.failures).toBe(0);
    expect(await store.delivery(d.id)).toMatchObject({ status: 'DELIVERED', attempts: 3, lastError: 'answered 502' });
    await store.webhookAttempted(d.id, hook.id, true, { status: 'DELIVERED', error: null });
    expect((await store.get(hook.id))?.failures).toBe(0);
  });
});
