/**
 * The database connection: DATABASE_URL when set, the embedded PostgreSQL otherwise.
 * Migrations are applied before anything else touches the database.
 *
 * Behind a connection pooler in transaction mode (PgBouncer), two things change:
 * - `directUrl` (DATABASE_DIRECT_URL, default DATABASE_URL) bypasses the pooler for what
 *   needs a session of its own: LISTEN, the job queue's runner (graphile-worker LISTENs and
 *   holds session state), the migrations' advisory lock, health checks;
 * - `preparedStatements: false` (DATABASE_PREPARED_STATEMENTS=false) sends the store's
 *   frequent statements unnamed (src/persistence/statements.ts): PgBouncer before 1.21 hands
 *   each transaction a different server connection, where a statement named on another is
 *   unknown ("prepared statement ... does not exist"). With 1.21+ and
 *   max_prepared_statements > 0 leave them on.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.ts';
import { startEmbedded } from './embedded.ts';
import { migrate } from './migrate.ts';
import { statementName } from './statements.ts';

export interface Database {
  /** Where the queries go (a pooler, when there is one). */
  url: string;
  /** A session of its own: LISTEN/NOTIFY, the job queue, migrations, health checks (unset: `url`). */
  directUrl?: string;
  prisma: PrismaClient;
  /** A plain pool for LISTEN/NOTIFY and health checks. */
  pool: pg.Pool;
  /** The pool Prisma's queries run on (DATABASE_POOL_SIZE connections); the event store's hot statements use it directly. */
  queryPool: pg.Pool;
  /** DATABASE_PREPARED_STATEMENTS: whether the store's frequent statements are named. */
  preparedStatements: boolean;
  /** DATABASE_GROUP_COMMIT: whether appends made together share a statement. */
  groupCommit: boolean;
  /** A streaming replica for the lag-tolerant reads (DATABASE_REPLICA_URL), when there is one. */
  replica?: { url: string; prisma: PrismaClient; pool: pg.Pool };
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

export interface DatabaseOptions {
  /** Connections of the query pool (DATABASE_POOL_SIZE). */
  poolSize?: number;
  /** DATABASE_DIRECT_URL: bypasses a pooler (default: `url`). */
  directUrl?: string;
  /** DATABASE_PREPARED_STATEMENTS: false behind PgBouncer < 1.21 in transaction mode. */
  preparedStatements?: boolean;
  /** DATABASE_REPLICA_URL: a streaming replica for the reads that tolerate lag (src/persistence/replica.ts). */
  replicaUrl?: string;
  /** DATABASE_GROUP_COMMIT: the appends of one turn of the event loop in one statement (EventStore); false when sharded by game. */
  groupCommit?: boolean;
}

export async function openDatabase(
  url: string,
  log: (msg: string) => void = () => {},
  stop?: () => Promise<void>,
  { poolSize = 10, directUrl = url, preparedStatements = true, replicaUrl, groupCommit = true }: DatabaseOptions = {},
): Promise<Database> {
  await migrate(directUrl, log);
  const pool = new pg.Pool({ connectionString: directUrl, max: 4 });
  pool.on('error', (e) => log(`database pool: ${e.message}`));
  const queryPool = new pg.Pool({ connectionString: url, max: poolSize });
  queryPool.on('error', (e) => log(`database pool: ${e.message}`));
  const names = preparedStatements ? { statementNameGenerator: statementName as (query: { sql: string }) => string } : {};
  const prisma = new PrismaClient({ adapter: new PrismaPg(queryPool, names) });
  let replica: Database['replica'];
  if (replicaUrl) {
    const replicaPool = new pg.Pool({ connectionString: replicaUrl, max: poolSize });
    replicaPool.on('error', (e) => log(`replica pool: ${e.message}`));
    replica = { url: replicaUrl, pool: replicaPool, prisma: new PrismaClient({ adapter: new PrismaPg(replicaPool, names) }) };
  }
  return {
    url,
    directUrl,
    prisma,
    pool,
    queryPool,
    preparedStatements,
    groupCommit,
    replica,
    async close() {
      await replica?.prisma.$disconnect().catch(() => {});
      await replica?.pool.end().catch(() => {});
      await prisma.$disconnect().catch(() => {});
      await queryPool.end().catch(() => {});
      await pool.end().catch(() => {});
      await stop?.();
    },
  };
}
