/**
 * Starts the server: the embedded PostgreSQL unless DATABASE_URL is set, migrations,
 * then HTTP on HOST:PORT. With WEB_CONCURRENCY > 1 the primary process owns the database
 * and forks that many server processes sharing the port (node:cluster); the service is
 * correct as several processes on one database, so nothing else changes. SIGINT/SIGTERM
 * close everything gracefully.
 */
import cluster from 'node:cluster';
import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { buildApp } from './api/app.ts';
import { games } from './domain/games.ts';
import { openDatabase, resolveDatabaseUrl } from './persistence/database.ts';
import { migrate } from './persistence/migrate.ts';

const log = pino({ level: process.env.LOG_LEVEL ?? 'info' });
const port = Number(process.env.PORT ?? 4000);
const host = process.env.HOST ?? '127.0.0.1';
const processes = Number(process.env.WEB_CONCURRENCY ?? 1);

async function serve(url: string, stop?: () => Promise<void>) {
  const database = await openDatabase(url, (msg) => log.info(msg), stop);
  const app = await buildApp({ database, games, loggerInstance: log, graphiql: process.env.NODE_ENV !== 'production' });
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'shutting down after an error');
    else log.info(`${signal} received: shutting down`);
    await app.close();
    await database.close();
  });
  await app.listen({ port, host });
}

/** The primary of several server processes: the database is its own, the serving theirs. */
async function primary(url: string, stop?: () => Promise<void>) {
  await migrate(url, (msg) => log.info(msg)); // once, before any worker starts
  let stopping = false;
  const fork = () => cluster.fork({ DATABASE_URL: url, WEB_CONCURRENCY: '1' });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    log.error(`server process ${worker.process.pid} exited (${signal ?? code}); starting another`);
    setTimeout(fork, 1000);
  });
  for (let i = 0; i < processes; i++) fork();
  log.info(`${processes} server processes on ${host}:${port}`);
  closeWithGrace({ delay: 15_000 }, async ({ signal }) => {
    stopping = true;
    log.info(`${signal ?? 'shutdown'} received: stopping ${processes} server processes`);
    const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
    await Promise.all(workers.map((w) => new Promise<void>((resolve) => {
      w.once('exit', () => resolve());
      w.process.kill('SIGTERM');
    })));
    await stop?.();
  });
}

try {
  if (cluster.isPrimary) {
    const { url, stop } = await resolveDatabaseUrl((msg) => log.info(msg));
    if (processes > 1) await primary(url, stop);
    else await serve(url, stop);
  } else {
    await serve(process.env.DATABASE_URL!);
  }
} catch (error) {
  log.fatal({ err: error }, (error as Error).message);
  process.exit(1);
}
