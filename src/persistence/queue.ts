/**
 * The job queue: graphile-worker on the service's own PostgreSQL, no other broker. Every
 * server process runs a runner (unless WORKERS=false) and they share the one database:
 * a job runs once, on whichever process takes it first, and a job whose process died is
 * taken again (see `reclaim`).
 *
 * Three ways to add a job, all durable once their transaction commits:
 *   - in the append's own SQL statement (`AppendInput.jobs`, see src/persistence/event-store.ts):
 *     the job exists if and only if the command was stored;
 *   - in SQL anywhere else: `SELECT graphile_worker.add_job(...)` inside your transaction;
 *   - right after a commit: `queue.add(task, payload, options)`.
 * A keyed job (`key`) replaces the pending job with the same key (a new payload and run_at);
 * `queue.remove(key)` cancels it. `runAt` schedules it. Tasks are plain async functions
 * registered with `define` before `start`; a task that throws is retried with exponential
 * backoff (graphile-worker's: about e^attempt seconds) up to its `maxAttempts`.
 *
 * Adding a job NOTIFYs the runners inside the adding transaction, which serialises commits
 * for a moment: add jobs only when something needs one, not for every command.
 */
import { EventEmitter } from 'node:events';
import { Logger, run, type Job, type JobHelpers, type Runner, type TaskList, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';

import type { JobQueue } from '../app/ports.ts';
import type { TaskFn, TaskRegistry } from '../app/tasks.ts';

export interface AddOptions {
  key?: string;
  runAt?: Date;
  maxAttempts?: number;
  /** Jobs of one queue name run one at a time, in order. Few names, never one per game. */
  queueName?: string;
  priority?: number;
  /** With `key`: 'replace' (default) updates a pending job of that key; 'keep' adds nothing when a job of that key exists, running or not. */
  keyMode?: 'replace' | 'keep';
}


export function quietLogger(log: (msg: string) => void): Logger {
  return new Logger(() => (level, message) => {
    if (level === 'error' || level === 'warning') log(`job queue: ${message}`);
  });
}

export interface QueueOptions {
  connectionString: string;
  /** Jobs this process runs at once (default 4). */
  concurrency?: number;
  /** How often a runner looks for jobs whose NOTIFY it missed, and for due scheduled jobs (ms). */
  pollInterval?: number;
  log?: (msg: string) => void;
  /** How often this process says its runners live (ms, default 10 s). */
  heartbeatMs?: number;
  /** A runner not heard of for this long (default one minute; well above every process's heartbeatMs) is taken for dead: its jobs run again elsewhere (ms). */
  deadAfterMs?: number;
}

/**
 * One process's part of the queue. `add`/`remove` work whether or not this process runs
 * jobs; `start` runs them (WORKERS=true).
 */
export class Queue implements JobQueue, TaskRegistry {
  private readonly tasks: TaskList = {};
  private readonly pool: pg.Pool;
  private runner: Runner | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly workerIds = new Set<string>();
  private readonly log: (msg: string) => void;

  constructor(private readonly options: QueueOptions) {
    this.log = options.log ?? (() => {});
    this.pool = new pg.Pool({ connectionString: options.connectionString, max: (options.concurrency ?? 4) + 2 });
    // graphile-worker wants both handlers (a client's error must not crash the process).
    this.pool.on('error', (e) => this.log(`job queue pool: ${e.message}`));
    this.pool.on('connect', (client) => client.on('error', (e) => this.log(`job queue connection: ${e.message}`)));
    this.pool.on('connect', (client) => client.on('error', (e) => this.log(`job queue connection: ${e.message}`)));
  }

  /** Registers a task (before start). */
  define(name: string, task: TaskFn): void {
    this.tasks[name] = (payload, helpers: JobHelpers) => task((payload ?? {}) as Record<string, unknown>, { attempts: helpers.job.attempts, maxAttempts: helpers.job.max_attempts });
  }

  get running(): boolean {
    return this.runner !== null;
  }

  /** Runs this process's runner. Its schema (graphile_worker) is installed with the migrations (src/persistence/migrate.ts). */
  /** `only`: run only these tasks here (a runner for the clocks apart from the deliveries'). */
  async start(only?: Iterable<string>): Promise<void> {
    if (this.runner) return;
    const wanted = only ? new Set(only) : null;
    const taskList: TaskList = wanted ? Object.fromEntries(Object.entries(this.tasks).filter(([name]) => wanted.has(name))) : this.tasks;
    // Jobs are locked by their runner pool's id: remember it before the pool takes any.
    const events = new EventEmitter() as WorkerEvents;
    events.on('pool:create', ({ workerPool }) => {
      this.workerIds.add(workerPool.id);
      void this.beat();
    });
    const runner = await run({
      pgPool: this.pool,
      events,
      taskList,
      concurrency: this.options.concurrency ?? 4,
      pollInterval: this.options.pollInterval ?? 2_000,
      noHandleSignals: true,
      logger: quietLogger(this.log),
    });
    this.runner = runner;
    this.heartbeat = setInterval(() => void this.beat().then(() => this.reclaim()), this.options.heartbeatMs ?? 10_000);
    this.heartbeat.unref();
    await this.beat();
    await this.reclaim();
  }

  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    const runner = this.runner;
    this.runner = null;
    // A graceful stop lets running jobs finish and unlocks the rest for the other processes.
    if (runner) await runner.stop().catch((e: Error) => this.log(`job queue stop: ${e.message}`));
    if (this.workerIds.size) await this.pool.query('DELETE FROM queue_workers WHERE worker_id = ANY($1::text[])', [[...this.workerIds]]).catch(() => {});
    await this.pool.end().catch(() => {});
  }

  /** Adds a job now (after a commit: a crash in between loses it, so prefer the in-statement jobs). */
  async add(task: string, payload: Record<string, unknown> = {}, options: AddOptions = {}): Promise<string> {
    const { rows } = await this.pool.query<{ id: string }>(
      'SELECT (graphile_worker.add_job($1, $2::json, queue_name => $3, run_at => $4::timestamptz, max_attempts => $5::int, job_key => $6, priority => $7::int, job_key_mode => $8)).id::text AS id',
      [task, JSON.stringify(payload), options.queueName ?? null, options.runAt?.toISOString() ?? null, options.maxAttempts ?? null, options.key ?? null, options.priority ?? null, options.keyMode === 'keep' ? 'unsafe_dedupe' : 'replace'],
    );
    return rows[0]!.id;
  }

  /** Cancels the pending job with this key (a running one finishes). */
  async remove(key: string): Promise<void> {
    await this.pool.query('SELECT graphile_worker.remove_job($1)', [key]);
  }

  /** Pending jobs of a task (for tests and operators). */
  async pending(task?: string): Promise<Pick<Job, 'id' | 'task_identifier' | 'payload' | 'attempts' | 'key' | 'run_at'>[]> {
    const { rows } = await this.pool.query(
      `SELECT j.id::text, t.identifier AS task_identifier, j.payload, j.attempts, j.key, j.run_at
       FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE $1::text IS NULL OR t.identifier = $1`,
      [task ?? null],
    );
    return rows;
  }

  /**
   * graphile-worker frees the jobs of a process that died only after four hours. Each
   * process says every 10 s that its runners live; any process frees the jobs of runners
   * not heard of for `deadAfterMs` (default one minute), so they run again at once elsewhere.
   */
  private async beat(): Promise<void> {
    if (!this.runner || this.workerIds.size === 0) return;
    await this.pool
      .query(
        `INSERT INTO queue_workers (worker_id, seen_at) SELECT unnest($1::text[]), now()
         ON CONFLICT (worker_id) DO UPDATE SET seen_at = now()`,
        [[...this.workerIds]],
      )
      .catch((e: Error) => this.log(`job queue heartbeat: ${e.message}`));
  }

  private async reclaim(): Promise<void> {
    if (!this.runner) return;
    try {
      const { rows } = await this.pool.query<{ worker_id: string }>(
        `DELETE FROM queue_workers WHERE seen_at < now() - make_interval(secs => $1::float8 / 1000) RETURNING worker_id`,
        [this.options.deadAfterMs ?? 60_000],
      );
      if (rows.length) {
        await this.pool.query('SELECT graphile_worker.force_unlock_workers($1::text[])', [rows.map((r) => r.worker_id)]);
        this.log(`job queue: freed the jobs of ${rows.length} runner(s) of a process that stopped answering`);
      }
    } catch (e) {
      this.log(`job queue reclaim: ${(e as Error).message}`);
    }
  }
}
