/**
 * The job queue (graphile-worker on the test database): a job added with an append runs
 * once even with two runners (two processes) taking jobs; a refused append adds none; keyed
 * jobs replace and cancel each other; a dead process's jobs are freed for the others.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/persistence/database.ts';
import { EventStore } from '../../src/persistence/event-store.ts';
import { Queue } from '../../src/persistence/queue.ts';
import { databaseUrl } from '../support/server.ts';

let db: Database;
let store: EventStore;
const ran: { queue: string; payload: Record<string, unknown> }[] = [];
const queues: Queue[] = [];
const task = `test-${randomUUID().slice(0, 8)}`;

function makeQueue(name: string) {
  const q = new Queue({ connectionString: databaseUrl(), pollInterval: 200, concurrency: 2, deadAfterMs: 500 });
  q.define(task, async (payload) => {
    ran.push({ queue: name, payload });
  });
  queues.push(q);
  return q;
}

beforeAll(async () => {
  db = await openDatabase(databaseUrl());
  store = new EventStore(db.prisma);
  await Promise.all([makeQueue('a').start(), makeQueue('b').start()]);
});
afterAll(async () => {
  await Promise.all(queues.map((q) => q.stop()));
  await db?.close();
});

async function until(check: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function newGame() {
  const id = randomUUID();
  await store.createGame({
    game: { id, type: 't', options: {}, players: [{ seat: 'a', name: 'A' }], seedCommitment: 'c', seed: 's', status: 'ACTIVE', awaiting: ['a'], result: null, rules: 'r' },
    tokens: [{ tokenHash: createHash('sha256').update(id).digest('hex'), seat: 'a', name: 'A' }],
    events: [{ type: 'Setup', seat: null, data: { type: 'Setup' } }],
  });
  return id;
}

const summary = { status: 'ACTIVE', awaiting: ['a'], result: null };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the job queue', () => {
  it('runs a job added in the append statement once, on one of two runners; a refused append adds no job', async () => {
    const id = await newGame();
    const append = (n: number) =>
      store.append({ gameId: id, expectedVersion: 1, seat: 'a', command: { n }, idempotencyKey: null, events: [{ type: 'E', seat: 'a', data: { n } }], summary, outbox: [], jobs: [{ task, payload: { gameId: id, n } }] });
    const outcomes = await Promise.all([append(1), append(2), append(3)]);
    const winner = outcomes.findIndex((o) => o.ok) + 1;
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    await until(() => ran.some((r) => r.payload.gameId === id));
    await sleep(1000); // a second run would show by now
    expect(ran.filter((r) => r.payload.gameId === id).map((r) => r.payload.n)).toEqual([winner]);
  });

  it('stores the priority a job added in the append asks for (deliveries go before fan-outs)', async () => {
    const id = await newGame();
    const later = new Date(Date.now() + 3_600_000);
    const jobs = [{ task, payload: { gameId: id }, key: `first-${id}`, runAt: later, priority: -1 }, { task, payload: { gameId: id }, key: `plain-${id}`, runAt: later }];
    expect(await store.append({ gameId: id, expectedVersion: 1, seat: 'a', command: {}, idempotencyKey: null, events: [{ type: 'E', seat: 'a', data: {} }], summary, outbox: [], jobs })).toMatchObject({ ok: true });
    const rows = (await db.pool.query('SELECT key, priority FROM graphile_worker._private_jobs WHERE key = ANY($1::text[]) ORDER BY priority, key', [jobs.map((j) => j.key)])).rows;
    expect(rows).toEqual([{ key: `first-${id}`, priority: -1 }, { key: `plain-${id}`, priority: 0 }]);
    await db.pool.query('DELETE FROM graphile_worker._private_jobs WHERE key = ANY($1::text[])', [jobs.map((j) => j.key)]);
  });

  it('runs a job added after a commit once; a key replaces the pending job and remove cancels it', async () => {
    const mark = randomUUID();
    await queues[0]!.add(task, { mark, n: 1 });
    const later = new Date(Date.now() + 1500);
    await queues[1]!.add(task, { mark, n: 2 }, { key: `k:${mark}`, runAt: later });
    await queues[0]!.add(task, { mark, n: 3 }, { key: `k:${mark}`, runAt: later }); // replaces n: 2
    await queues[0]!.add(task, { mark, n: 4 }, { key: `gone:${mark}`, runAt: later });
    await queues[1]!.remove(`gone:${mark}`);
    await until(() => ran.filter((r) => r.payload.mark === mark).length >= 2);
    await sleep(1000);
    expect(ran.filter((r) => r.payload.mark === mark).map((r) => r.payload.n).sort()).toEqual([1, 3]);
  });

  it("frees the jobs a dead process held: another runner runs them", async () => {
    const mark = randomUUID();
    // A job locked by a runner whose process stopped beating (it died holding the job).
    const { rows } = await db.pool.query(`SELECT (graphile_worker.add_job($1, $2::json, run_at => now() + interval '1 hour')).id`, [task, JSON.stringify({ mark })]);
    await db.pool.query(`UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'dead-runner', run_at = now() WHERE id = $1`, [rows[0].id]);
    await db.pool.query(`INSERT INTO queue_workers (worker_id, seen_at) VALUES ('dead-runner', now() - interval '1 hour')`);
    await until(() => ran.some((r) => r.payload.mark === mark), 20_000);
    expect(ran.filter((r) => r.payload.mark === mark)).toHaveLength(1);
  });
});

describe('runners for some tasks only', () => {
  it('a runner started for the clocks\' tasks takes none of the deliveries\' jobs; another runner takes those', async () => {
    const { tasksOf, TASKS } = await import('../../src/app/tasks.ts');
    expect(tasksOf(['clock'])).toEqual([TASKS.deadlinePassed, TASKS.deadlineSoon]);
    const clockTask = `clock-${randomUUID().slice(0, 8)}`;
    const deliveryTask = `delivery-${randomUUID().slice(0, 8)}`;
    const took: string[] = [];
    // The clocks' runner knows both tasks but is started for the clock's only.
    const clocks = new Queue({ connectionString: databaseUrl(), pollInterval: 200, concurrency: 1 });
    clocks.define(clockTask, async () => void took.push('clock-runner'));
    clocks.define(deliveryTask, async () => void took.push('clock-runner took a delivery'));
    queues.push(clocks);
    await clocks.start([clockTask]);
    await clocks.add(deliveryTask, {});
    await clocks.add(clockTask, {});
    await until(() => took.length >= 1);
    await sleep(800);
    expect(took).toEqual(['clock-runner']); // the delivery waits for a runner of its own
    const ranBefore = took.length;
    const only = new Queue({ connectionString: databaseUrl(), pollInterval: 200, concurrency: 1 });
    only.define(deliveryTask, async () => void took.push('deliveries-runner'));
    queues.push(only);
    await only.start([deliveryTask]);
    await until(() => took.length > ranBefore);
    expect(took.slice(ranBefore)).toEqual(['deliveries-runner']);
  });
});

describe('a lane with a local queue', () => {
  it('is the delivery lane\'s by default: its runners and one more, or as QUEUE_DELIVERY_LOCAL_QUEUE says', async () => {
    const { queueLanes } = await import('../../src/server.ts');
    const delivery = (o?: Parameters<typeof queueLanes>[0]) => queueLanes(o).find((l) => l.name === 'delivery')!.localQueue;
    expect(delivery()).toBe(9);
    expect(delivery({ deliveryConcurrency: 4 })).toBe(5);
    expect(delivery({ deliveryLocalQueue: 0 })).toBe(0);
    expect(queueLanes().filter((l) => l.localQueue).map((l) => l.name)).toEqual(['delivery']);
  });

  it('fetches and locks several jobs at once, hands them to its runner in turn, and runs each once', async () => {
    // One runner, held by its first job: with a local queue of 4 the lane has locked the next
    // ones too (one statement); without, only the running one is locked.
    const locked = async (t: string) =>
      Number((await db.pool.query(`SELECT count(*) FILTER (WHERE j.locked_at IS NOT NULL) AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = $1`, [t])).rows[0].n);
    for (const size of [4, 0]) {
      const t = `local-${size}-${randomUUID().slice(0, 8)}`;
      const done: number[] = [];
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const q = new Queue({ connectionString: databaseUrl(), pollInterval: 200, lanes: [{ name: 'delivery', tasks: [t], concurrency: 1, localQueue: size }] });
      q.define(t, async (payload) => {
        if (payload.n === 0) await held;
        done.push(Number(payload.n));
      });
      queues.push(q);
      // Added before the runner starts, so its first fetch sees them all.
      for (let n = 0; n < 4; n++) await q.add(t, { n }, { runAt: new Date(Date.now() - (4 - n) * 1000) });
      await q.start();
      for (const end = Date.now() + 10_000; (await locked(t)) === 0 && Date.now() < end; ) await sleep(50);
      await sleep(300);
      expect(await locked(t)).toBe(size > 1 ? 4 : 1);
      release();
      await until(() => done.length === 4);
      expect(done.sort()).toEqual([0, 1, 2, 3]);
      await q.stop();
    }
  });
});
