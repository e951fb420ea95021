/**
 * Real parts for the scaling tests, each started and stopped by the test that needs it, on
 * 127.0.0.1 only: a PostgreSQL 15 cluster of the test's own (Debian's binaries; as root the
 * cluster runs as the `postgres` user), a streaming standby of it (pg_basebackup -R),
 * PgBouncer (transaction mode) and server processes (bench/serve.ts: the hosted games and
 * the guessing game). Every wait is bounded.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PG_BIN = process.env.PG15_BIN ?? '/usr/lib/postgresql/15/bin';
export const PGBOUNCER = process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer';
const ROOT = new URL('../../', import.meta.url).pathname;
const root = process.getuid?.() === 0;
const POSTGRES_UID = root ? Number(execFileSync('id', ['-u', 'postgres']).toString().trim()) : 0;
const POSTGRES_GID = root ? Number(execFileSync('id', ['-g', 'postgres']).toString().trim()) : 0;

export const havePg15 = existsSync(join(PG_BIN, 'initdb')) && existsSync(join(PG_BIN, 'pg_basebackup'));
export const havePgBouncer = existsSync(PGBOUNCER);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** As the postgres user when we are root (PostgreSQL and PgBouncer refuse to run as root). */
function asPostgres(cmd: string, args: string[]): [string, string[]] {
  return root ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

function run(cmd: string, args: string[]): string {
  const [c, a] = asPostgres(cmd, args);
  return execFileSync(c, a, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 }).toString();
}

/** A folder the postgres user owns. */
export function folder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o700);
  if (root) chownSync(dir, POSTGRES_UID, POSTGRES_GID);
  return dir;
}

export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, { tries = 200, everyMs = 50 } = {}): Promise<T> {
  let last: unknown;
  for (let i = 0; i < tries; i++) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`${what}: not after ${tries} tries${last ? ` (${(last as Error).message})` : ''}`);
}

export interface Cluster {
  port: number;
  url: string;
  dir: string;
  stop(): void;
  /** An outage: `pg_ctl stop -m immediate` (no checkpoint, every connection cut), the data kept. */
  halt(): void;
  /** Back after `halt`, on the same port. */
  resume(): void;
}

function startCluster(dir: string, port: number): Cluster {
  const start = () => run(join(PG_BIN, 'pg_ctl'), ['-D', dir, '-l', join(dir, 'log'), '-w', '-t', '60', '-o', `-p ${port} -k ${dir}`, 'start']);
  start();
  let stopped = false;
  return {
    port,
    dir,
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    halt() {
      run(join(PG_BIN, 'pg_ctl'), ['-D', dir, '-m', 'immediate', '-w', '-t', '30', 'stop']);
    },
    resume() {
      start();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(join(PG_BIN, 'pg_ctl'), ['-D', dir, '-m', 'immediate', '-w', '-t', '30', 'stop']);
      } catch {
        /* already down */
      }
      rmSync(join(dir, '..'), { recursive: true, force: true });
    },
  };
}

/**
 * A fresh primary: trust on 127.0.0.1 (replication too), WAL for one standby. `settings`
 * (postgresql.conf lines) come after the defaults and win over them, e.g. `fsync = on`.
 */
export async function primaryCluster(settings: string[] = []): Promise<Cluster> {
  const base = folder('wargame-pg15-');
  const dir = join(base, 'data');
  run(join(PG_BIN, 'initdb'), ['-D', dir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  writeFileSync(
    join(dir, 'postgresql.auto.conf'),
    ["listen_addresses = '127.0.0.1'", 'wal_level = replica', 'max_wal_senders = 4', 'max_connections = 200', 'fsync = off', 'hot_standby = on', 'shared_buffers = 32MB', ...settings, ''].join('\n'),
  );
  if (root) chownSync(join(dir, 'postgresql.auto.conf'), POSTGRES_UID, POSTGRES_GID);
  return startCluster(dir, await freePort());
}

/** A streaming standby of `primary` (pg_basebackup -R), on a port of its own. */
export async function standbyOf(primary: Cluster, settings: string[] = []): Promise<Cluster> {
  const base = folder('wargame-pg15-standby-');
  const dir = join(base, 'data');
  run(join(PG_BIN, 'pg_basebackup'), ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', dir, '-R', '-X', 'stream', '--no-sync']);
  if (settings.length) appendFileSync(join(dir, 'postgresql.auto.conf'), `${settings.join('\n')}\n`);
  return startCluster(dir, await freePort());
}

export interface Bouncer {
  url: string;
  stop(): void;
}

/** PgBouncer in transaction mode in front of `target` (trust: the test's own cluster). */
export async function pgbouncer(target: Cluster, poolSize = 4): Promise<Bouncer> {
  const dir = folder('wargame-pgbouncer-');
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(join(dir, 'users.txt'), '"postgres" ""\n');
  writeFileSync(
    ini,
    [
      '[databases]',
      `postgres = host=127.0.0.1 port=${target.port} dbname=postgres user=postgres`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      'max_client_conn = 500',
      'ignore_startup_parameters = extra_float_digits,options',
      `logfile = ${join(dir, 'log')}`,
      '',
    ].join('\n'),
  );
  if (root) for (const f of ['users.txt', 'pgbouncer.ini']) chownSync(join(dir, f), POSTGRES_UID, POSTGRES_GID);
  const [c, a] = asPostgres(PGBOUNCER, [ini]);
  // Its own process group: as root the child is runuser, and a SIGKILL to runuser alone left
  // pgbouncer running after the suite (one orphan a run); stop() kills the whole group.
  const child = spawn(c, a, { stdio: 'ignore', detached: true });
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  const pg = (await import('pg')).default;
  await until('pgbouncer listening', async () => {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    await client.connect();
    await client.query('SELECT 1');
    await client.end();
    return true;
  });
  return {
    url,
    stop() {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group has gone already
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM, then SIGKILL after a bounded wait. */
  stop(): Promise<void>;
  kill(): void;
}

/** One process of the service (`bench/serve.ts`, or `src/worker.ts` with `worker`), with `env`. */
export async function serverProcess(env: Record<string, string>, { worker = false } = {}): Promise<ServerProcess> {
  const port = await freePort();
  const script = worker ? 'src/worker.ts' : 'bench/serve.ts';
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', WEB_CONCURRENCY: '1', RATE_LIMIT_MAX: '1000000', REGISTRATION_RATE_LIMIT: '1000000', NODE_ENV: 'test', WEBHOOK_SECRET_KEY: '0'.repeat(64), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out = (out + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (out = (out + d).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  if (!worker) {
    await until(`server on ${port} ready (${out.slice(-500)})`, async () => {
      if (child.exitCode !== null) throw new Error(`exited: ${out.slice(-1000)}`);
      return (await fetch(`${url}/readyz`)).ok;
    }, { tries: 600, everyMs: 100 });
  }
  return {
    url,
    child,
    output: () => out,
    kill: () => child.kill('SIGKILL'),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';
export const haveHaproxy = existsSync(HAPROXY);

export interface Balancer {
  url: string;
  stop(): void;
}

/** HAProxy round-robin in front of `backends` (health-checked on /readyz every 200 ms). */
export async function haproxy(backends: string[]): Promise<Balancer> {
  const dir = mkdtempSync(join(tmpdir(), 'wargame-haproxy-'));
  const port = await freePort();
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(
    cfg,
    [
      'global',
      '  maxconn 2000',
      'defaults',
      '  mode http',
      '  timeout connect 1s',
      '  timeout client 30s',
      '  timeout server 30s',
      '  timeout tunnel 60s',
      '  retries 2',
      '  option redispatch',
      'frontend web',
      `  bind 127.0.0.1:${port}`,
      '  default_backend app',
      'backend app',
      '  balance roundrobin',
      '  option httpchk GET /readyz',
      ...backends.map((b, i) => `  server s${i} ${new URL(b).host} check inter 200ms fall 1 rise 2`),
      '',
    ].join('\n'),
  );
  const child = spawn(HAPROXY, ['-f', cfg, '-db'], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  await until('haproxy listening', async () => (await fetch(`${url}/readyz`)).ok);
  return {
    url,
    stop() {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
