/**
 * Applies pending migrations from prisma/migrations at startup. The Prisma schema engine is
 * a binary Prisma downloads from its own servers, which the machines this is built and tested
 * on cannot reach (they reach the npm registry only), so this runner does what
 * `prisma migrate deploy` does: each folder's migration.sql, in name order, recorded in
 * _prisma_migrations with Prisma's columns and checksum (sha256 of the file), under an
 * advisory lock so that several server processes starting together apply each once.
 * A database migrated here is one `prisma migrate deploy` agrees with, and vice versa.
 * The job queue's schema (graphile_worker, src/persistence/queue.ts) is graphile-worker's own:
 * its migrations run next, under the same lock.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Logger, runMigrations } from 'graphile-worker';
import pg from 'pg';

export const MIGRATIONS_DIR = new URL('../../prisma/migrations/', import.meta.url).pathname;
const LOCK_KEY = 727_274_001; // any constant shared by every process of this service

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/** Applies what is pending; returns the names applied now. */
export async function migrate(url: string, log: (msg: string) => void = () => {}): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(CREATE_TABLE);
    const done = await client.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const byName = new Map(done.rows.map((r) => [r.migration_name, r.checksum]));
    for (const m of listMigrations()) {
      const known = byName.get(m.name);
      if (known !== undefined) {
        if (known !== m.checksum) log(`migration ${m.name} was changed after it was applied (checksum differs)`);
        continue;
      }
      const id = randomUUID();
      await client.query('BEGIN');
      try {
        await client.query('INSERT INTO "_prisma_migrations" (id, checksum, migration_name) VALUES ($1, $2, $3)', [id, m.checksum, m.name]);
        await client.query(m.sql);
        await client.query('UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [id]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${m.name} failed: ${(error as Error).message}`);
      }
      log(`applied migration ${m.name}`);
      applied.push(m.name);
    }
    await installQueueSchema(url, log);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => {});
    await client.end();
  }
  return applied;
}

/** True when every one of `expected` is recorded as applied: what /readyz reports. */
export async function migrationsApplied(query: (sql: string) => Promise<{ migration_name: string }[]>, expected: string[]): Promise<boolean> {
  const rows = await query('SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL');
  const names = new Set(rows.map((r) => r.migration_name));
  return expected.every((name) => names.has(name));
}

/** Installs or upgrades graphile-worker's schema (graphile_worker); a no-op when current. */
async function installQueueSchema(url: string, log: (msg: string) => void): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  try {
    await runMigrations({
      pgPool: pool,
      logger: new Logger(() => (level, message) => {
        if (level === 'error' || level === 'warning') log(`job queue schema: ${message}`);
      }),
    });
  } finally {
    await pool.end();
  }
}
