/**
 * The database connection: DATABASE_URL when set, the embedded PostgreSQL otherwise.
 * Migrations are applied before anything else touches the database.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.ts';
import { startEmbedded } from './embedded.ts';
import { migrate } from './migrate.ts';
import { statementName } from './statements.ts';

export interface Database {
  url: string;
  prisma: PrismaClient;
  /** A plain pool for LISTEN/NOTIFY and health checks. */
  pool: pg.Pool;
  /** The pool Prisma's queries run on (DATABASE_POOL_SIZE connections), here so its use can be reported. */
  queryPool: pg.Pool;
  close(): Promise<void>;
}

export const DEFAULT_DATA_DIR = new URL('../../.data/pg', import.meta.url).pathname;

/** `databaseUrl` and `dataDir` come from the validated configuration (src/config.ts). */
export async function resolveDatabaseUrl(
  log: (msg: string) => void,
  { databaseUrl, dataDir = DEFAULT_DATA_DIR }: { databaseUrl?: string; dataDir?: string } = {},
): Promise<{ url: string; stop?: () => Promise<void> }> {
  if (databaseUrl) return { url: databaseUrl };
  log(`DATABASE_URL is unset: starting the embedded PostgreSQL (data in ${dataDir})`);
  const embedded = await startEmbedded({ dataDir, log });
  return { url: embedded.url, stop: embedded.stop };
}

export async function openDatabase(
  url: string,
  log: (msg: string) => void = () => {},
  stop?: () => Promise<void>,
  { poolSize = 10 }: { poolSize?: number } = {},
): Promise<Database> {
  await migrate(url, log);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', (e) => log(`database pool: ${e.message}`));
  const queryPool = new pg.Pool({ connectionString: url, max: poolSize });
  queryPool.on('error', (e) => log(`database pool: ${e.message}`));
  const prisma = new PrismaClient({ adapter: new PrismaPg(queryPool, { statementNameGenerator: statementName as (query: { sql: string }) => string }) });
  return {
    url,
    prisma,
    pool,
    queryPool,
    async close() {
      await prisma.$disconnect().catch(() => {});
      await queryPool.end().catch(() => {});
      await pool.end().catch(() => {});
      await stop?.();
    },
  };
}
