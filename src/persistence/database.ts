/**
 * The database connection: DATABASE_URL when set, the embedded PostgreSQL otherwise.
 * Migrations are applied before anything else touches the database.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.ts';
import { startEmbedded } from './embedded.ts';
import { migrate } from './migrate.ts';

export interface Database {
  url: string;
  prisma: PrismaClient;
  /** A plain pool for LISTEN/NOTIFY and health checks. */
  pool: pg.Pool;
  close(): Promise<void>;
}

export const DEFAULT_DATA_DIR = new URL('../../.data/pg', import.meta.url).pathname;

export async function resolveDatabaseUrl(log: (msg: string) => void): Promise<{ url: string; stop?: () => Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL };
  const dataDir = process.env.EMBEDDED_PG_DATA ?? DEFAULT_DATA_DIR;
  log(`DATABASE_URL is unset: starting the embedded PostgreSQL (data in ${dataDir})`);
  const embedded = await startEmbedded({ dataDir, log });
  return { url: embedded.url, stop: embedded.stop };
}

export async function openDatabase(url: string, log: (msg: string) => void = () => {}, stop?: () => Promise<void>): Promise<Database> {
  await migrate(url, log);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', (e) => log(`database pool: ${e.message}`));
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) }) });
  return {
    url,
    prisma,
    pool,
    async close() {
      await prisma.$disconnect().catch(() => {});
      await pool.end().catch(() => {});
      await stop?.();
    },
  };
}
