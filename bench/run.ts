/**
 * `npm run bench`: throughput and latency of commands through the HTTP API, and the
 * speed of loading (folding) a long game with and without snapshots. Prints a table
 * and writes the same figures to bench/results/latest.json. Not a test: no assertions
 * beyond sanity checks. See bench/README.md.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/api/app.ts';
import { SNAPSHOT_EVERY } from '../src/app/application.ts';
import { games as hostedGames } from '../src/domain/games.ts';
import { openDatabase, type Database } from '../src/persistence/database.ts';
import { startEmbedded, type EmbeddedDatabase } from '../src/persistence/embedded.ts';
import { guessingGame } from '../test/support/guessing-game.ts';
import { runFold, type FoldResult } from './fold.ts';
import { HttpClient, runLoad, type LoadResult } from './http-load.ts';
import { round, table } from './stats.ts';

function intList(value: string | undefined, fallback: number[], name: string): number[] {
  if (value === undefined || value.trim() === '') return fallback;
  const list = value.split(',').map((v) => Number(v.trim()));
  if (list.length === 0 || list.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`${name} must be a comma-separated list of whole numbers >= 1, got "${value}"`);
  return list;
}

function positiveInt(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number >= 1, got "${value}"`);
  return n;
}

const config = {
  games: intList(process.env.BENCH_GAMES, [1, 8, 32], 'BENCH_GAMES'),
  commandsPerGame: positiveInt(process.env.BENCH_COMMANDS, 200, 'BENCH_COMMANDS'),
  // 5050: the latest snapshot is then some 50 events behind, as for an average game.
  foldEvents: positiveInt(process.env.BENCH_FOLD_EVENTS, 5050, 'BENCH_FOLD_EVENTS'),
  repeats: positiveInt(process.env.BENCH_REPEATS, 7, 'BENCH_REPEATS'),
  warmupCommands: 40,
};

// Points to win: far enough that no game ends during a run (guessing 1 every round
// scores exactly 1 point a round), within the cap of the guessing game's options (1000
// in its first versions).
const TARGET = Math.min(1_000_000, (guessingGame.optionsSchema as { properties: { target: { maximum: number } } }).properties.target.maximum);

const log = (msg: string) => console.log(`# ${msg}`);

async function main() {
  console.log('wargame-service benchmark');
  console.log(
    `NOTE: figures from a shared, noisy machine (${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}); ` +
      'compare runs on the same machine only, and prefer the medians and ratios to single numbers.',
  );
  console.log('');

  let folder: string | undefined;
  let embedded: EmbeddedDatabase | undefined;
  let database: Database | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  const databaseKind = process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL (throw-away)';
  const createdGameIds: string[] = [];
  try {
    let url = process.env.DATABASE_URL;
    if (!url) {
      folder = mkdtempSync(join(tmpdir(), 'wargame-bench-pg-'));
      chmodSync(folder, 0o755); // as root, the server runs as `postgres`, which must enter it
      const started = Date.now();
      embedded = await startEmbedded({ dataDir: join(folder, 'data'), persistent: false, log });
      url = embedded.url;
      log(`embedded PostgreSQL started in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } else {
      log('using the PostgreSQL server named by DATABASE_URL (the bench games are deleted at the end)');
    }
    database = await openDatabase(url, log);
    app = await buildApp({ database, games: [...hostedGames, guessingGame], logger: false, rateLimit: 1_000_000_000 });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    log(`server listening on ${address}`);

    // 1. Commands through the HTTP API.
    const client = new HttpClient(address, TARGET);
    log(`warm-up: ${config.warmupCommands} commands in one game (not counted)`);
    await runLoad(client, 1, config.warmupCommands);
    const http: LoadResult[] = [];
    for (const n of config.games) {
      log(`HTTP: ${n} game(s) at once, ${config.commandsPerGame} commands each`);
      http.push(await runLoad(client, n, config.commandsPerGame));
    }
    createdGameIds.push(...client.created);

    // 2. Folding a long game.
    log(`folding: building a game of ${config.foldEvents} events (rules decided as by the service, appended in batches; snapshot every ${SNAPSHOT_EVERY} versions)`);
    const fold = await runFold(database.prisma, hostedGames, config.foldEvents, config.repeats);
    createdGameIds.push(fold.gameId);
    log(`folding: built ${fold.events} events from ${fold.commands} commands in ${fold.buildSeconds} s`);

    report(http, fold, databaseKind);
  } finally {
    if (process.env.DATABASE_URL && database && createdGameIds.length) {
      await database.prisma.game.deleteMany({ where: { id: { in: createdGameIds } } }).catch((e: Error) => log(`could not delete the bench games: ${e.message}`));
    }
    await app?.close();
    await database?.close();
    await embedded?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
}

function report(http: LoadResult[], fold: FoldResult & { gameId: string }, databaseKind: string) {
  const base = http.find((r) => r.games === 1) ?? http[0]!;
  console.log('');
  console.log(`Commands through HTTP (POST /api/games/:id/commands, one client loop per game, keep-alive; database: ${databaseKind})`);
  console.log(
    table(
      ['games', 'commands', 'errors', 'seconds', 'commands/s', `x vs ${base.games}`, 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'CPU ms/cmd'],
      http.map((r) => [r.games, r.commands, r.errors, r.seconds.toFixed(2), r.commandsPerSecond.toFixed(0), (r.commandsPerSecond / base.commandsPerSecond).toFixed(2), r.p50Ms.toFixed(2), r.p90Ms.toFixed(2), r.p99Ms.toFixed(2), r.maxMs.toFixed(1), r.cpuMsPerCommand.toFixed(2)]),
    ),
  );
  console.log('');
  console.log(`Loading a game of ${fold.events} events with a fresh service (no in-process cache); median of ${fold.repeats} loads after one warm-up`);
  const w = fold.withoutSnapshots;
  const s = fold.withSnapshots;
  console.log(
    table(
      ['load', 'events folded', 'median ms', 'min ms', 'max ms', 'game events/s', 'folded events/s'],
      [
        ['without snapshots', w.eventsFolded, w.medianMs.toFixed(2), w.minMs.toFixed(2), w.maxMs.toFixed(2), w.gameEventsPerSecond, w.foldedEventsPerSecond],
        [`with snapshot (v${s.fromVersion})`, s.eventsFolded, s.medianMs.toFixed(2), s.minMs.toFixed(2), s.maxMs.toFixed(2), s.gameEventsPerSecond, s.foldedEventsPerSecond],
      ],
    ),
  );
  console.log(`ratio: loading without snapshots takes ${fold.speedup}x as long as with them`);
  console.log(
    `where the time goes without snapshots: reading the ${fold.events} rows ${fold.readAllEventsMs.toFixed(2)} ms, ` +
      `folding them in memory ${fold.inMemoryFoldMs.toFixed(2)} ms (${fold.inMemoryEventsPerSecond} events/s)`,
  );
  console.log(`long game: ${fold.commands} commands decided by the rules and appended in batches in ${fold.buildSeconds} s; ${fold.snapshotsWritten} snapshots written`);

  const results = {
    generatedAt: new Date().toISOString(),
    note: 'Shared, noisy machine: compare runs on the same machine only; prefer medians and ratios.',
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? null, node: process.version, platform: `${process.platform}-${process.arch}`, loadavg: loadavg().map((l) => round(l)) },
    database: databaseKind,
    config: { ...config, target: TARGET, snapshotEvery: SNAPSHOT_EVERY },
    http: http.map((r) => ({ ...r, throughputVsBase: round(r.commandsPerSecond / base.commandsPerSecond) })),
    fold: { ...fold, gameId: undefined },
  };
  const dir = new URL('./results/', import.meta.url).pathname;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log('');
  console.log('figures written to bench/results/latest.json');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
