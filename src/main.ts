/**
 * Starts the server: the configuration is validated first (src/config.ts), then the
 * embedded PostgreSQL unless DATABASE_URL is set, migrations, then HTTP on HOST:PORT.
 * SIGINT/SIGTERM close everything gracefully.
 */
import { ConfigError, loadConfig } from './config.ts';

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
const [{ default: closeWithGrace }, { default: pino }, { buildApp }, { games }, { openDatabase, resolveDatabaseUrl }] = await Promise.all([
  import('close-with-grace'),
  import('pino'),
  import('./api/app.ts'),
  import('./domain/games.ts'),
  import('./persistence/database.ts'),
]);

const log = pino({ level: config.logLevel });

try {
  const { url, stop } = await resolveDatabaseUrl((msg) => log.info(msg), { databaseUrl: config.databaseUrl, dataDir: config.embeddedPgData });
  const database = await openDatabase(url, (msg) => log.info(msg), stop, { poolSize: config.databasePoolSize });
  const app = await buildApp({ database, games, loggerInstance: log, graphiql: config.graphiql, rateLimit: config.rateLimitMax });
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'shutting down after an error');
    else log.info(`${signal} received: shutting down`);
    await app.close();
    await database.close();
  });
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  log.fatal({ err: error }, (error as Error).message);
  process.exit(1);
}
