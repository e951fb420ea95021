/**
 * A database of a test file's own on the tests' PostgreSQL cluster. Every test file's servers
 * share the one test database, and with `workers` each runs job runners on it: a job added by
 * one file (a mail, a deadline) can be taken by another file's runners and sent through their
 * SMTP settings into their mailbox. A file that runs workers and waits for mail, or asserts
 * that none came, starts its servers on a database of its own instead (`databaseUrl: url`; the
 * first server to open it applies the migrations, about half a second) and drops it once they
 * are closed. Also for a test whose jobs or schema changes must not meet other files'.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { databaseUrl } from './server.ts';

export interface OwnDatabase {
  url: string;
  /** Drops it (and any connection still on it): after the file's servers are closed. */
  drop(): Promise<void>;
}

/** A fresh, empty database named `<prefix>_<random>` on the tests' cluster. */
export async function ownDatabase(prefix: string): Promise<OwnDatabase> {
  if (!/^[a-z][a-z0-9_]*$/.test(prefix)) throw new Error(`ownDatabase: "${prefix}" is not a plain lower-case name`);
  const name = `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const cluster = databaseUrl();
  await onCluster(cluster, `CREATE DATABASE ${name}`);
  const url = new URL(cluster);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onCluster(cluster, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function onCluster(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
