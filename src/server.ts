/**
 * Starts the server: the configuration is validated first (src/config.ts), then the
 * embedded PostgreSQL unless DATABASE_URL is set, migrations, then HTTP on HOST:PORT.
 * With WEB_CONCURRENCY > 1 the primary process owns the database and forks that many
 * server processes sharing the port (node:cluster); the service is correct as several
 * processes on one database, so nothing else changes. SIGINT/SIGTERM close everything
 * gracefully.
 */
import cluster from 'node:cluster';
import { ConfigError, loadConfig } from './config.ts';
import type { GameModule } from './domain/kernel/index.ts';

/** `games` is loaded only once the configuration is known to be good. */
export async function startService(loadGames: () => Promise<GameModule[]>): Promise<void> {
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
  const [{ default: closeWithGrace }, { default: pino }, { buildApp }, games, { openDatabase, resolveDatabaseUrl }, { migrate }] = await Promise.all([
    import('close-with-grace'),
    import('pino'),
    import('./api/app.ts'),
    loadGames(),
    import('./persistence/database.ts'),
    import('./persistence/migrate.ts'),
  ]);

  const log = pino({ level: config.logLevel });

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
    const database = await openDatabase(url, (msg) => log.info(msg), stop, { poolSize: config.databasePoolSize });
    const app = await buildApp({
      database,
      games,
      loggerInstance: log,
      graphiql: config.graphiql,
      rateLimit: config.rateLimitMax,
      trustProxy: config.trustProxy,
      registrationsPerMinute: config.registrationRateLimit,
      maxEventLoopDelay: config.maxEventLoopDelay,
      bots: config.workers,
      queue: config.workers,
      notifications: {
        secretKey: await secretKey(),
        publicUrl: config.publicUrl ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`,
        smtpUrl: config.smtpUrl,
        mailFrom: config.mailFrom,
        allowPrivate: config.webhookAllowPrivate,
      },
    });
    closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
      if (err) log.error({ err }, 'shutting down after an error');
      else log.info(`${signal} received: shutting down`);
      await app.close();
      await database.close();
    });
    await app.listen({ port: config.port, host: config.host });
  }

  /** The primary of several server processes: the database is its own, the serving theirs. */
  async function primary(url: string, processes: number, stop?: () => Promise<void>) {
    await migrate(url, (msg) => log.info(msg)); // once, before any server process starts
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
    closeWithGrace({ delay: 15_000 }, async ({ signal }) => {
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
