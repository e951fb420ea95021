/**
 * A process SIGKILLed while it holds a deadline job (issue 24.6). The time-out must fire
 * from another process within seconds, not after QUEUE_DEAD_AFTER_MS (a minute): the
 * clocks' lane beats every second and is taken for dead after QUEUE_CLOCK_DEAD_AFTER_MS
 * (5 s by default), so its jobs are freed and run elsewhere.
 *
 * Mid-job, deterministically: the test holds the game's row locked, so process A's
 * deadline job (the time-out's append) waits on it; A is killed while the job is locked by
 * its runner; A's server connections end (pg_terminate_backend: a killed process's
 * statement must not finish for it), the lock is released, and B (started while A held the
 * job, with every timing at its default) must run the time-out.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../scaling/load.ts';
import { havePg15, primaryCluster, serverProcess, until, type Cluster, type ServerProcess } from '../scaling/parts.ts';

if (!havePg15 && process.env.CI) throw new Error('PostgreSQL 15 is needed (.ci/run installs it)');

describe.skipIf(!havePg15)('a deadline job whose process is SIGKILLed mid-job', () => {
  let cluster: Cluster;
  let a: ServerProcess | undefined;
  let b: ServerProcess | undefined;
  let db: pg.Client;
  let locker: pg.Client;

  beforeAll(async () => {
    cluster = await primaryCluster();
    a = await serverProcess({ DATABASE_URL: cluster.url, DATABASE_POOL_SIZE: '4' });
    db = new pg.Client({ connectionString: cluster.url });
    locker = new pg.Client({ connectionString: cluster.url });
    await Promise.all([db.connect(), locker.connect()]);
  }, 120_000);
  afterAll(async () => {
    await locker?.end().catch(() => {});
    await db?.end().catch(() => {});
    await Promise.all([a?.stop(), b?.stop()]);
    cluster?.stop();
  });

  it('times out from the other process within seconds', async () => {
    const created = await call(a!.url, 'POST', '/api/games', { type: 'raid-on-wuchao', seats: [{ seat: 'cao', name: 'A' }, { seat: 'yuan', name: 'B' }], clock: { perMove: 2 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const gameId = created.body.game.id as string;
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM games WHERE id = $1 FOR UPDATE', [gameId]);

    // A's clock runner takes the deadline and waits on the lock: the job is locked by A.
    const lockedBy = await until('A holds the deadline job', async () => {
      const { rows } = await db.query(
        `SELECT j.locked_by FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
         WHERE t.identifier = 'deadline_passed' AND j.payload->>'gameId' = $1 AND j.locked_at IS NOT NULL`,
        [gameId],
      );
      return rows[0]?.locked_by as string | undefined;
    }, { tries: 400, everyMs: 50 });
    expect((await db.query('SELECT dead_after_ms FROM queue_workers WHERE worker_id = $1', [lockedBy])).rows[0]?.dead_after_ms).toBe(5_000);

    // B starts (default timings) while A holds the job; then A dies.
    b = await serverProcess({ DATABASE_URL: cluster.url, DATABASE_POOL_SIZE: '4' });
    a!.kill();
    await new Promise((r) => a!.child.once('exit', r));
    const killedAt = Date.now();
    await db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND pid <> $1 AND wait_event_type = 'Lock'`, [(locker as unknown as { processID: number }).processID]);
    await locker.query('ROLLBACK');

    const timedOut = async () => (await db.query(`SELECT count(*)::int AS n FROM game_events WHERE game_id = $1 AND type = 'TimedOut'`, [gameId])).rows[0].n as number;
    await until('the time-out', async () => (await timedOut()) > 0, { tries: 1200, everyMs: 50 });
    const after = Date.now() - killedAt;
    // QUEUE_DEAD_AFTER_MS (a minute) would be far beyond this; the clocks' lane is dead after 5 s.
    expect(after).toBeLessThan(20_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await timedOut()).toBe(1);
    expect(b.child.exitCode).toBeNull();
  }, 180_000);
});
