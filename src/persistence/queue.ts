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
  /** Jobs this process runs at once, for a lane that names none (default 4). */
  concurrency?: number;
  /** How often a runner looks for jobs whose NOTIFY it missed, and for due scheduled jobs (ms). */
  pollInterval?: number;
  log?: (msg: string) => void;
  /** How often this process says its runners live (ms, default 10 s), for a lane that names none. */
  heartbeatMs?: number;
  /** A runner not heard of for this long (default one minute; well above every process's heartbeatMs) is taken for dead: its jobs run again elsewhere (ms). */
  deadAfterMs?: number;
  /** This process's runners, one per lane (default: one lane of every task). */
  lanes?: LaneOptions[];
}

/**
 * A lane: a runner of its own for some tasks, so that they never wait behind the others'
 * jobs (the clocks apart from the deliveries), with its own concurrency and its own
 * heartbeat: a lane whose jobs are urgent beats often and is taken for dead soon.
 */
export interface LaneOptions {
  name: string;
  /** Its tasks (none: every task no other lane names). */
  tasks?: readonly string[];
  concurrency?: number;
  heartbeatMs?: number;
  deadAfterMs?: number;
  /**
   * Jobs fetched (and locked) by one statement, handed to the lane's runners as they free up
   * (graphile-worker's localQueue; 0 or 1: each runner fetches its own). Fewer fetches, but a
   * job may wait in one process's local queue while another process's runners are idle.
   */
  localQueue?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One lane's runner. It rides out a database outage: graphile-worker stops a runner whose
 * job's completion (or failure) cannot be written (the queue would be inconsistent). Its
 * rejection is caught here (never left unhandled), the runner's jobs stay locked by its
 * pool, and once the database answers again the lane frees them (they run again: a job is
 * at least once) and starts a new runner. Completions are written in batches (graphile's
 * batchers) so that a failed write reaches the pool's error handler instead of a promise
 * nobody awaits.
 */
class Lane {
  runner: Runner | null = null;
  /** The pools of the running runner (beaten for); a runner that failed leaves its ids in `lost` until they are freed. */
  readonly workerIds = new Set<string>();
  private readonly lost = new Set<string>();
  private recovering: Promise<void> | null = null;
  private stopping = false;
  private timer: NodeJS.Timeout | null = null;
  restarts = 0;

  constructor(
    readonly spec: Required<Omit<LaneOptions, 'tasks'>> & { tasks: readonly string[] | undefined },
    private readonly taskList: TaskList,
    private readonly pool: pg.Pool,
    private readonly pollInterval: number,
    private readonly log: (msg: string) => void,
  ) {}

  async start(): Promise<void> {
    await this.launch();
    this.timer = setInterval(() => void this.beat(), this.spec.heartbeatMs);
    this.timer.unref();
  }

  private async launch(): Promise<void> {
    // Jobs are locked by their runner pool's id: remember it before the pool takes any.
    const events = new EventEmitter() as WorkerEvents;
    events.on('pool:create', ({ workerPool }) => {
      this.workerIds.add(workerPool.id);
      void this.beat();
    });
    // A worker that could not record its job's outcome leaves the pool: start afresh.
    let runner: Runner | null = null;
    events.on('worker:fatalError', ({ error }) => runner && this.failed(runner, error));
    runner = await run({
      pgPool: this.pool,
      events,
      taskList: this.taskList,
      concurrency: this.spec.concurrency,
      pollInterval: this.pollInterval,
      noHandleSignals: true,
      logger: quietLogger(this.log),
      preset: {
        worker: {
          completeJobBatchDelay: 0, failJobBatchDelay: 0,
          // A job left in the local queue goes back to the table after a minute (graphile's default is five).
          ...(this.spec.localQueue > 1 ? { localQueue: { size: this.spec.localQueue, ttl: 60_000 } } : {}),
        },
      },
    });
    const started = runner;
    this.runner = started;
    started.promise.then(
      () => this.failed(started, new Error('the runner stopped by itself')),
      (error: unknown) => this.failed(started, error),
    );
    await this.beat();
  }

  /** The runner failed (the database went away under a job): free its jobs and start another once the database answers. */
  private failed(runner: Runner, error: unknown): void {
    if (this.stopping || this.runner !== runner) return;
    this.log(`job queue: the ${this.spec.name} runner stopped (${(error as Error)?.message ?? String(error)}); starting another when the database answers`);
    this.runner = null;
    for (const id of this.workerIds) this.lost.add(id);
    this.workerIds.clear();
    this.recovering ??= this.recover(runner).finally(() => {
      this.recovering = null;
    });
  }

  private async recover(old: Runner): Promise<void> {
    // The old runner lets its jobs finish (each has its own timeout), bounded.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([old.stop().catch(() => {}), new Promise((r) => (timer = setTimeout(r, 15_000)))]);
    clearTimeout(timer);
    await old.kill().catch(() => {});
    for (let attempt = 0; !this.stopping; attempt++) {
      try {
        if (this.lost.size) {
          const ids = [...this.lost];
          await this.pool.query('SELECT graphile_worker.force_unlock_workers($1::text[])', [ids]);
          await this.pool.query('DELETE FROM queue_workers WHERE worker_id = ANY($1::text[])', [ids]);
          for (const id of ids) this.lost.delete(id);
        }
        if (this.stopping) return;
        await this.launch();
        this.restarts++;
        this.log(`job queue: the ${this.spec.name} runner is back`);
        return;
      } catch (error) {
        if (attempt % 10 === 0) this.log(`job queue: waiting for the database (${(error as Error).message})`);
        await sleep(Math.min(500 * 2 ** Math.min(attempt, 3), 5_000));
      }
    }
  }

  /** Says this lane's runners live, with how long they may stay silent. */
  async beat(): Promise<void> {
    if (!this.runner || this.workerIds.size === 0) return;
    await this.pool
      .query(
        `INSERT INTO queue_workers (worker_id, seen_at, dead_after_ms) SELECT unnest($1::text[]), now(), $2::int
         ON CONFLICT (worker_id) DO UPDATE SET seen_at = now(), dead_after_ms = EXCLUDED.dead_after_ms`,
        [[...this.workerIds], this.spec.deadAfterMs],
      )
      .catch((e: Error) => this.log(`job queue heartbeat: ${e.message}`));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.recovering;
    const runner = this.runner;
    this.runner = null;
    // A graceful stop lets running jobs finish and unlocks the rest for the other processes.
    if (runner) await runner.stop().catch((e: Error) => this.log(`job queue stop: ${e.message}`));
    if (this.workerIds.size) await this.pool.query('DELETE FROM queue_workers WHERE worker_id = ANY($1::text[])', [[...this.workerIds]]).catch(() => {});
  }
}

/**
 * One process's part of the queue. `add`/`remove` work whether or not this process runs
 * jobs; `start` runs them (WORKERS=true): one runner per lane.
 */
export class Queue implements JobQueue, TaskRegistry {
  private readonly tasks: TaskList = {};
  private readonly pool: pg.Pool;
  private lanes: Lane[] = [];
  private reclaimer: NodeJS.Timeout | null = null;
  private readonly log: (msg: string) => void;

  constructor(private readonly options: QueueOptions) {
    this.log = options.log ?? (() => {});
    const runners = (options.lanes ?? [{ name: 'all' }]).reduce((n, l) => n + (l.concurrency ?? options.concurrency ?? 4) + 1, 0);
    this.pool = new pg.Pool({ connectionString: options.connectionString, max: runners + 2 });
    // graphile-worker wants both handlers (a client's error must not crash the process).
    this.pool.on('error', (e) => this.log(`job queue pool: ${e.message}`));
    this.pool.on('connect', (client) => client.on('error', (e) => this.log(`job queue connection: ${e.message}`)));
  }

  /** Registers a task (before start). */
  define(name: string, task: TaskFn): void {
    this.tasks[name] = (payload, helpers: JobHelpers) => task((payload ?? {}) as Record<string, unknown>, { attempts: helpers.job.attempts, maxAttempts: helpers.job.max_attempts });
  }

  get running(): boolean {
    return this.lanes.some((l) => l.runner !== null);
  }

  /** How many times a runner was started again after an error (for tests and operators). */
  get restarts(): number {
    return this.lanes.reduce((n, l) => n + l.restarts, 0);
  }

  /**
   * Runs this process's runners, one per lane (QueueOptions.lanes). Its schema
   * (graphile_worker) is installed with the migrations (src/persistence/migrate.ts).
   * `only`: one runner for only these tasks here instead.
   */
  async start(only?: Iterable<string>): Promise<void> {
    if (this.lanes.length) return;
    const specs: LaneOptions[] = only ? [{ name: 'only', tasks: [...only] }] : (this.options.lanes ?? [{ name: 'all' }]);
    const named = new Set(specs.flatMap((l) => l.tasks ?? []));
    for (const spec of specs) {
      const wanted = spec.tasks ? new Set(spec.tasks) : null;
      const taskList = Object.fromEntries(Object.entries(this.tasks).filter(([name]) => (wanted ? wanted.has(name) : !named.has(name))));
      if (Object.keys(taskList).length === 0) continue;
      const full = {
        name: spec.name,
        tasks: spec.tasks,
        concurrency: spec.concurrency ?? this.options.concurrency ?? 4,
        heartbeatMs: spec.heartbeatMs ?? this.options.heartbeatMs ?? 10_000,
        deadAfterMs: spec.deadAfterMs ?? this.options.deadAfterMs ?? 60_000,
        localQueue: spec.localQueue ?? 0,
      };
      this.lanes.push(new Lane(full, taskList, this.pool, this.options.pollInterval ?? 2_000, this.log));
    }
    await Promise.all(this.lanes.map((l) => l.start()));
    // Dead runners are looked for as often as the most urgent lane beats.
    const every = Math.min(...this.lanes.map((l) => l.spec.heartbeatMs), this.options.heartbeatMs ?? 10_000);
    this.reclaimer = setInterval(() => void this.reclaim(), every);
    this.reclaimer.unref();
    await this.reclaim();
  }

  async stop(): Promise<void> {
    if (this.reclaimer) clearInterval(this.reclaimer);
    this.reclaimer = null;
    await Promise.all(this.lanes.map((l) => l.stop()));
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
   * lane says every heartbeatMs that its runners live, with its deadAfterMs; any process
   * running jobs frees the jobs of runners not heard of for their deadAfterMs (the clocks'
   * lane: seconds; the others: a minute), and wakes the runners, so they run again at once
   * elsewhere. A runner only slow to beat (a stalled process) may then see its job run
   * twice: every task is idempotent (a deadline's timeOut is version-guarded, a delivery
   * keeps its webhook-id).
   */
  private async reclaim(): Promise<void> {
    if (!this.running) return;
    try {
      const { rows } = await this.pool.query<{ worker_id: string }>(
        `DELETE FROM queue_workers WHERE seen_at < now() - make_interval(secs => COALESCE(dead_after_ms, $1::int)::float8 / 1000) RETURNING worker_id`,
        [this.options.deadAfterMs ?? 60_000],
      );
      if (rows.length) {
        await this.pool.query('SELECT graphile_worker.force_unlock_workers($1::text[])', [rows.map((r) => r.worker_id)]);
        await this.pool.query(`SELECT pg_notify('jobs:insert', '{"count":16}')`);
        this.log(`job queue: freed the jobs of ${rows.length} runner(s) of a process that stopped answering`);
      }
    } catch (e) {
      this.log(`job queue reclaim: ${(e as Error).message}`);
    }
  }
}
