/**
 * The composition root: the only module that knows every layer. It validates the
 * configuration (src/config.ts), opens the database (the embedded PostgreSQL unless
 * DATABASE_URL is set) and its migrations, the PostgreSQL ports (src/persistence/ports.ts),
 * the core on them (src/app/core.ts), and then the roles this process was asked for:
 * HTTP (src/api, built from the core alone), the workers (src/workers: the job queue's
 * runner with every task), or both. `npm start` serves HTTP, and runs the workers too
 * unless WORKERS=false; `npm run worker` runs the workers alone.
 * With WEB_CONCURRENCY > 1 the primary process owns the database and forks that many
 * server processes sharing the port (node:cluster); the service is correct as several
 * processes on one database, so nothing else changes. SIGINT/SIGTERM close everything
 * gracefully.
 */
import cluster from 'node:cluster';
import type { AppOptions } from './api/app.ts';
import { createCore, type Core, type CoreOptions } from './app/core.ts';
import type { NotificationOptions } from './app/notifications.ts';
import { ConfigError, loadConfig } from './config.ts';
import type { GameModule } from './domain/kernel/index.ts';
import { trackPool } from './metrics.ts';
import type { Database } from './persistence/database.ts';
import { openPorts } from './persistence/ports.ts';
import type { LaneOptions, QueueOptions } from './persistence/queue.ts';
import { TASKS, tasksOf } from './app/tasks.ts';
import type { MailerOptions } from './workers/notifications.ts';

export interface ServiceOptions extends Omit<CoreOptions, 'notifications'> {
  database: Database;
  /** Webhooks and mail (mail is on when `mailer` is given). */
  notifications?: Partial<Omit<NotificationOptions, 'mail'>>;
  /** SMTP for mail; none: no mail. */
  mailer?: MailerOptions | null;
  /** Serve HTTP with these options (false: no HTTP in this process). */
  http?: AppOptions | false;
  /** Run the job queue's tasks here (false: jobs this process adds run elsewhere); `tasks`: only these. */
  workers?: (Omit<QueueOptions, 'connectionString'> & { tasks?: string[] }) | boolean;
  /** Listen for SMTP (play by mail's replies) here; none: no listener. */
  smtpInbound?: { port: number; host?: string } | null;
  /** false: no daily digest is scheduled at start (tests that plan days themselves). */
  digests?: boolean;
  log?: (msg: string) => void;
}

export interface Service {
  core: Core;
  /** The HTTP server, when this process serves it (not listening yet). */
  http: Awaited<ReturnType<typeof import('./api/app.ts').buildApp>> | null;
  /** The job queue (graphile-worker): add jobs from any role; running them is the workers'. */
  queue: import('./persistence/queue.ts').Queue;
  /** The SMTP listener, when asked for (listening). */
  smtp: import('./api/smtp.ts').SmtpListener | null;
  close(): Promise<void>;
}

/**
 * The job queue's lanes in a process running workers: a runner for the clocks' time-outs
 * (never behind a delivery; beating every second, dead after a few: a deadline held by a
 * process that died runs elsewhere within seconds), one for bot moves, inbound mail and
 * fan-outs (and any other task), one for deliveries (webhook POSTs and mail).
 */
export function queueLanes(opts: { clockHeartbeatMs?: number; clockDeadAfterMs?: number; deliveryConcurrency?: number; deliveryLocalQueue?: number } = {}): LaneOptions[] {
  const deliveries = opts.deliveryConcurrency ?? 8;
  return [
    { name: 'clock', tasks: tasksOf(['clock']), concurrency: 2, heartbeatMs: opts.clockHeartbeatMs ?? 1_000, deadAfterMs: opts.clockDeadAfterMs ?? 5_000 },
    { name: 'play', concurrency: 2 },
    // A webhook's sender waits on its POST most of the time: the runners are how many webhooks are served at once.
    // Their jobs fetched together (one more than the runners, as graphile-worker advises): under load a
    // freed runner takes its next job without a fetch (delivery p50 about a fifth lower in the bench).
    { name: 'delivery', tasks: tasksOf(['delivery']), concurrency: deliveries, localQueue: opts.deliveryLocalQueue ?? deliveries + 1 },
  ];
}

/** The core on PostgreSQL, and the roles asked for. */
export async function openService(options: ServiceOptions): Promise<Service> {
  const log = options.log ?? (() => {});
  const { database } = options;
  const asked = options.workers === true ? {} : options.workers || null;
  const workers = asked && { ...asked, lanes: asked.lanes ?? (asked.tasks ? undefined : queueLanes()) };
  const pg = await openPorts(database, { log, queue: workers ?? undefined });
  const core = createCore(pg.ports, { ...options, notifications: { ...options.notifications, mail: Boolean(options.mailer) } });
  const untrack = [trackPool('queries', database.queryPool), trackPool('notify', database.pool)];
  let tasks: { stop(): Promise<void>; close(): void } = { stop: async () => {}, close: () => {} };
  if (workers) {
    const { defineTasks } = await import('./workers/tasks.ts');
    // The notifications' dispatcher runs with the workers, unless they are given tasks that are none of the notifications'.
    const dispatch = !workers.tasks || workers.tasks.some((t) => t === TASKS.notify || t === TASKS.webhook);
    tasks = defineTasks(pg.queue, core, { mailer: options.mailer ?? null, log, dispatch });
    await pg.queue.start(workers.tasks);
    // The next daily digest (keyed: each process with workers adds the same job).
    if (options.mailer && options.digests !== false) await core.digests.schedule();
  }
  let http: Service['http'] = null;
  if (options.http !== false) {
    const { buildApp } = await import('./api/app.ts');
    http = await buildApp(core, options.http ?? {});
  }
  let smtp: Service['smtp'] = null;
  if (options.smtpInbound) {
    const { startSmtpListener } = await import('./api/smtp.ts');
    smtp = await startSmtpListener(core, { ...options.smtpInbound, log });
  }
  let closed: Promise<void> | null = null;
  return {
    core,
    http,
    queue: pg.queue,
    smtp,
    close: () =>
      (closed ??= (async () => {
        await smtp?.close();
        await http?.close(); // lets requests in flight finish
        await tasks.stop(); // the dispatcher records its successes while the database is open
        await pg.close();
        tasks.close();
        await core.close();
        for (const off of untrack) off();
      })()),
  };
}

/**
 * `games` is loaded only once the configuration is known to be good. `role`: 'service'
 * serves HTTP (and runs the workers unless WORKERS=false); 'worker' runs the workers alone.
 */
export async function startService(loadGames: () => Promise<GameModule[]>, role: 'service' | 'worker' = 'service'): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    // Before any logger exists and before anything starts: one plain line naming the variable.
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`wargame-service: ${error.message}\n`);
    process.exit(1);
  }

  // Loaded only once the configuration is known to be good, so a bad value fails in a moment.
  const [{ default: closeWithGrace }, { default: pino }, games, { openDatabase, resolveDatabaseUrl }, { migrate }] = await Promise.all([
    import('close-with-grace'),
    import('pino'),
    loadGames(),
    import('./persistence/database.ts'),
    import('./persistence/migrate.ts'),
  ]);

  const log = pino({ level: config.logLevel });
  // No rejection nobody awaited may stop the process (issue 24.1: a library's write that
  // failed while the database was away): it is logged, and the process keeps serving
  // (503 while the database is away). close-with-grace is told to leave these alone.
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, `unhandled rejection (the process goes on): ${(reason as Error)?.message ?? String(reason)}`));

  /**
   * The webhook secrets' key. Unset in development: one is made once and kept in
   * .data/webhook-secret-key (next to the embedded database), so `npm start` works and
   * webhooks survive restarts; in production (NODE_ENV=production) webhooks and mail stay
   * off until WEBHOOK_SECRET_KEY is set.
   */
  async function secretKey(): Promise<Buffer | null> {
    if (config.webhookSecretKey) return config.webhookSecretKey;
    if (config.nodeEnv === 'production') {
      log.warn('WEBHOOK_SECRET_KEY is unset: webhooks and mail are off (set it to 32 random bytes, e.g. `openssl rand -base64 32`)');
      return null;
    }
    const { existsSync, mkdirSync, readFileSync, writeFileSync } = await import('node:fs');
    const { randomBytes } = await import('node:crypto');
    const file = new URL('../.data/webhook-secret-key', import.meta.url).pathname;
    if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    const key = randomBytes(32);
    mkdirSync(new URL('../.data/', import.meta.url).pathname, { recursive: true });
    writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    log.warn(`WEBHOOK_SECRET_KEY is unset: made one for development in ${file}; set WEBHOOK_SECRET_KEY in production (a database dump alone cannot sign webhooks)`);
    return key;
  }

  async function serve(url: string, stop?: () => Promise<void>) {
    const database = await openDatabase(url, (msg) => log.info(msg), stop, {
      poolSize: config.databasePoolSize,
      directUrl: config.databaseDirectUrl ?? url,
      preparedStatements: config.databasePreparedStatements,
      replicaUrl: config.databaseReplicaUrl,
      groupCommit: config.databaseGroupCommit,
    });
    const warn = (msg: string) => log.warn(msg);
    const key = await secretKey();
    if (!config.smtpUrl) log.info('SMTP_URL is unset: mail is off (no verification codes, no "your turn" mail)');
    const http = role === 'service';
    const service = await openService({
      database,
      games,
      log: warn,
      registrationsPerMinute: config.registrationRateLimit,
      absenceDaysPerYear: config.absenceDaysPerYear,
      notifications: {
        secretKey: key,
        publicUrl: config.publicUrl ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`,
        allowPrivate: config.webhookAllowPrivate,
      },
      mailer: config.smtpUrl ? { smtpUrl: config.smtpUrl, from: config.mailFrom ?? 'Wargame service <no-reply@localhost>' } : null,
      http: http && { loggerInstance: log, graphiql: config.graphiql, rateLimit: config.rateLimitMax, trustProxy: config.trustProxy, maxEventLoopDelay: config.maxEventLoopDelay, mailInboundSecret: config.mailInboundSecret ?? null },
      workers: (!http || config.workers) && { pollInterval: config.queuePollMs, heartbeatMs: config.queueHeartbeatMs, deadAfterMs: config.queueDeadAfterMs, lanes: queueLanes({ clockHeartbeatMs: config.queueClockHeartbeatMs, clockDeadAfterMs: config.queueClockDeadAfterMs, deliveryConcurrency: config.queueDeliveryConcurrency, deliveryLocalQueue: config.queueDeliveryLocalQueue }) },
      playByMail: { replyDomain: config.mailReplyDomain ?? 'localhost' },
      digestTime: config.digestTime,
      smtpInbound: http && config.mailInboundPort !== undefined ? { port: config.mailInboundPort, host: config.mailInboundHost } : null,
    });
    if (service.smtp) log.info(`play by mail: SMTP on ${config.mailInboundHost}:${service.smtp.port}, reply addresses @${config.mailReplyDomain ?? 'localhost'}`);
    closeWithGrace({ delay: 10_000, skip: ['unhandledRejection'] }, async ({ signal, err }) => {
      if (err) log.error({ err }, 'shutting down after an error');
      else log.info(`${signal} received: shutting down`);
      await service.close();
      await database.close();
    });
    if (service.http) await service.http.listen({ port: config.port, host: config.host });
    else log.info('worker: running the job queue\'s tasks (no HTTP)');
  }

  /** The primary of several server processes: the database is its own, the serving theirs. */
  async function primary(url: string, processes: number, stop?: () => Promise<void>) {
    await migrate(config.databaseDirectUrl ?? url, (msg) => log.info(msg)); // once, before any server process starts
    await secretKey(); // made once here, read by every server process
    let stopping = false;
    const fork = () => cluster.fork({ DATABASE_URL: url, WEB_CONCURRENCY: '1' });
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) return;
      log.error(`server process ${worker.process.pid} exited (${signal ?? code}); starting another`);
      setTimeout(fork, 1000);
    });
    for (let i = 0; i < processes; i++) fork();
    log.info(`${processes} server processes on ${config.host}:${config.port}`);
    closeWithGrace({ delay: 15_000, skip: ['unhandledRejection'] }, async ({ signal }) => {
      stopping = true;
      log.info(`${signal ?? 'shutdown'} received: stopping ${processes} server processes`);
      const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
      await Promise.all(
        workers.map(
          (w) =>
            new Promise<void>((resolve) => {
              w.once('exit', () => resolve());
              w.process.kill('SIGTERM');
            }),
        ),
      );
      await stop?.();
    });
  }

  try {
    if (cluster.isPrimary) {
      const { url, stop } = await resolveDatabaseUrl((msg) => log.info(msg), { databaseUrl: config.databaseUrl, dataDir: config.embeddedPgData });
      if (config.webConcurrency > 1) await primary(url, config.webConcurrency, stop);
      else await serve(url, stop);
    } else {
      await serve(process.env.DATABASE_URL!);
    }
  } catch (error) {
    log.fatal({ err: error }, (error as Error).message);
    process.exit(1);
  }
}
