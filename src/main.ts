/**
 * Starts the server: the embedded PostgreSQL unless DATABASE_URL is set, migrations,
 * then HTTP on HOST:PORT. SIGINT/SIGTERM close everything gracefully.
 */
import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { buildApp } from './api/app.ts';
import { games } from './domain/games.ts';
import { openDatabase, resolveDatabaseUrl } from './persistence/database.ts';

const log = pino({ level: process.env.LOG_LEVEL ?? 'info' });
const port = Number(process.env.PORT ?? 4000);
const host = process.env.HOST ?? '127.0.0.1';

try {
  const { url, stop } = await resolveDatabaseUrl((msg) => log.info(msg));
  const database = await openDatabase(url, (msg) => log.info(msg), stop);
  const app = await buildApp({ database, games, loggerInstance: log, graphiql: process.env.NODE_ENV !== 'production' });
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'shutting down after an error');
    else log.info(`${signal} received: shutting down`);
    await app.close();
    await database.close();
  });
  await app.listen({ port, host });
} catch (error) {
  log.fatal({ err: error }, (error as Error).message);
  process.exit(1);
}
