/**
 * `npm run bench`: the service as its own processes (bench/serve.ts: src/server.ts with
 * the guessing game added), loaded by client loops in this process. Prints tables and
 * writes the same figures to bench/results/latest.json. Not a test: it asserts nothing
 * beyond sanity checks. See bench/README.md.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SNAPSHOT_EVERY } from '../src/app/states.ts';
import { games as hostedGames } from '../src/domain/games.ts';
import { openDatabase, type Database } from '../src/persistence/database.ts';
import { startEmbedded, type EmbeddedDatabase } from '../src/persistence/embedded.ts';
import { runFold, type FoldResult } from './fold.ts';
import { runCore, type CoreResult } from './core.ts';
import { runRules, type RulesResult } from './rules.ts';
import { prismaCost, type PrismaCost } from './prisma.ts';
import { burst, graphqlRaid, newGuessingGame, restLoop, sequential, webhookGames, type Burst, type Load, type WebhookLoad } from './scenarios.ts';
import { onlyCluster, postgresCpuSince, postgresTicks, startServer, type ServerProcess } from './server.ts';
import { median, round, table } from './stats.ts';
import { runScaling, scalingTable } from './scaling.ts';
import { bgioLoop, startBgioServer, type BgioLoad, type BgioServer } from './bgio.ts';
import { havePg15, primaryCluster, type Cluster } from '../test/scaling/parts.ts';
import pg from 'pg';

function intList(value: string | undefined, fallback: number[], name: string): number[] {
  if (value === undefined || value.trim() === '') return fallback;
  const list = value.split(',').map((v) => Number(v.trim()));
  if (list.length === 0 || list.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`${name} must be a comma-separated list of whole numbers >= 1, got "${value}"`);
  return list;
}

function positiveInt(value: string | undefined, fallback: number, name: string, min = 1): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number >= ${min}, got "${value}"`);
  return n;
}

const config = {
  games: intList(process.env.BENCH_GAMES, [1, 8, 32], 'BENCH_GAMES'),
  commandsPerGame: positiveInt(process.env.BENCH_COMMANDS, 200, 'BENCH_COMMANDS'),
  graphqlGames: positiveInt(process.env.BENCH_GRAPHQL_GAMES, 32, 'BENCH_GRAPHQL_GAMES'),
  graphqlCommands: positiveInt(process.env.BENCH_GRAPHQL_COMMANDS, 60, 'BENCH_GRAPHQL_COMMANDS'),
  // 10,050: a game of some 10,000 events, its latest snapshot some 50 events behind.
  foldEvents: positiveInt(process.env.BENCH_FOLD_EVENTS, 10_050, 'BENCH_FOLD_EVENTS'),
  repeats: positiveInt(process.env.BENCH_REPEATS, 7, 'BENCH_REPEATS'),
  processes: intList(process.env.BENCH_PROCESSES, [1, 2], 'BENCH_PROCESSES'),
  // Rounds of REST at the largest BENCH_GAMES with one process: the side-by-side takes their median.
  restRounds: positiveInt(process.env.BENCH_REST_ROUNDS, 3, 'BENCH_REST_ROUNDS'),
  burst: positiveInt(process.env.BENCH_BURST, 200, 'BENCH_BURST'),
  webhookGames: positiveInt(process.env.BENCH_WEBHOOK_GAMES, 8, 'BENCH_WEBHOOK_GAMES'),
  webhookCommands: positiveInt(process.env.BENCH_WEBHOOK_COMMANDS, 100, 'BENCH_WEBHOOK_COMMANDS'),
  // Untimed, before each server's first measured run: enough for V8 to have optimised the
  // command path (the first few thousand commands cost up to twice the CPU of later ones).
  warmupCommands: positiveInt(process.env.BENCH_WARMUP, 3200, 'BENCH_WARMUP'),
  // Section 8: boardgame.io 0.50 + bgio-postgres side by side (BENCH_BGIO=0 skips it).
  bgio: (process.env.BENCH_BGIO?.trim() ?? '') !== '0',
  bgioMatches: positiveInt(process.env.BENCH_BGIO_MATCHES, 32, 'BENCH_BGIO_MATCHES'),
  bgioSeconds: positiveInt(process.env.BENCH_BGIO_SECONDS, 20, 'BENCH_BGIO_SECONDS'),
  // Section 8's pairs: a REST round and boardgame.io playing the same games (as many, as long),
  // back to back, BENCH_PAIRS times (0: none), so that each ratio is taken within seconds.
  pairs: positiveInt(process.env.BENCH_PAIRS, 3, 'BENCH_PAIRS', 0),
  // A pair's REST half: this many rounds of new games in a row (about as long as the other half).
  pairRestRounds: positiveInt(process.env.BENCH_PAIR_REST_ROUNDS, 6, 'BENCH_PAIR_REST_ROUNDS'),
  // embedded (default): the embedded PostgreSQL; system: a throw-away cluster of Debian's PostgreSQL 15.
  pg: process.env.BENCH_PG?.trim() || 'embedded',
  // BENCH_ONLY=webhooks: section 5 alone (after the warm-up), PostgreSQL's CPU of the bench's cluster only.
  // BENCH_ONLY=rest: target 1 alone: REST at 32 games and the append through pg, BENCH_REPEATS rounds in turn.
  // BENCH_ONLY=pairs: section 8's pairs alone (REST against boardgame.io, BENCH_PAIRS pairs).
  // BENCH_ONLY=rules: section 7's rules alone (no database, no server).
  only: process.env.BENCH_ONLY?.trim() || '',
};
if (!['', 'webhooks', 'rest', 'pairs', 'rules'].includes(config.only)) throw new Error(`BENCH_ONLY must be webhooks, rest, pairs or rules, got "${config.only}"`);
if (!['embedded', 'system'].includes(config.pg)) throw new Error(`BENCH_PG must be embedded or system, got "${config.pg}"`);
if (config.pg === 'system' && process.env.DATABASE_URL) throw new Error('BENCH_PG=system starts a cluster of its own: unset DATABASE_URL');

const log = (msg: string) => console.log(`# ${msg}`);

// BENCH_SCALING=1 adds the scaling section after the rest; BENCH_SCALING=only runs it alone.
const scalingMode = process.env.BENCH_SCALING?.trim() ?? '';
if (!['', '0', '1', 'only'].includes(scalingMode)) throw new Error(`BENCH_SCALING must be 1 or only, got "${scalingMode}"`);
const scalingConfig = {
  processes: intList(process.env.BENCH_SCALING_PROCESSES, [1, 2, 3], 'BENCH_SCALING_PROCESSES'),
  clients: positiveInt(process.env.BENCH_SCALING_CLIENTS, 16, 'BENCH_SCALING_CLIENTS'),
  commandsPerClient: positiveInt(process.env.BENCH_SCALING_COMMANDS, 100, 'BENCH_SCALING_COMMANDS'),
};

/** Section 9: HAProxy over 1..3 processes, reads on the primary, then on a streaming replica. */
async function scalingSection() {
  console.log('');
  console.log(
    `9. Scaling: REST through HAProxy over N server processes (WORKERS=false) on a PostgreSQL 15 primary of its own; each client loop sends a command then reads the log after it (served by the replica in the "replica" rows). ${JSON.stringify(scalingConfig)}`,
  );
  const rows = await runScaling({ ...scalingConfig, log });
  if (rows.length) console.log(scalingTable(rows));
  const dir = new URL('./results/', import.meta.url).pathname;
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'scaling.json'),
    `${JSON.stringify({ generatedAt: new Date().toISOString(), machine: { cpus: cpus().length, loadavg: loadavg().map((l) => round(l)) }, config: scalingConfig, rows }, null, 2)}\n`,
  );
  console.log('figures written to bench/results/scaling.json');
}

/** A load with the server's CPU, PostgreSQL's CPU and the database's share of the request time around it. */
interface Measured extends Load {
  processes: number;
  serverCpuMsPerCommand: number;
  postgresCpuMsPerCommand: number;
  /** The bench process's own CPU a command: the client loops (and anything else it runs meanwhile). */
  clientCpuMsPerCommand: number;
  /** Share of the server's request time spent in the append (the command path's one database round trip). */
  databaseShare: number | null;
}

/** CPU seconds spent while `run` runs: by a server (`serverCpu`), by PostgreSQL, and by this process (the client loops). */
async function cpuAround<T>(serverCpu: () => number, run: () => Promise<T>): Promise<{ result: T; server: number; postgres: number; client: number }> {
  const before = { cpu: serverCpu(), pg: postgresTicks() };
  const client = process.cpuUsage();
  const result = await run();
  const usage = process.cpuUsage(client);
  return { result, server: serverCpu() - before.cpu, postgres: postgresCpuSince(before.pg), client: (usage.user + usage.system) / 1e6 };
}

/** Milliseconds each of `n`, from seconds in all. */
const msEach = (seconds: number, n: number) => round((seconds * 1000) / Math.max(1, n));

async function measured(server: ServerProcess, run: () => Promise<Load>): Promise<Measured> {
  const m0 = await server.scrape();
  const { result: load, ...cpu } = await cpuAround(() => server.cpuSeconds(), run);
  const m1 = await server.scrape();
  const requestSeconds = m1.requestSeconds - m0.requestSeconds;
  const appendSeconds = m1.appendSeconds - m0.appendSeconds;
  return {
    ...load,
    processes: server.processes,
    serverCpuMsPerCommand: msEach(cpu.server, load.commands),
    postgresCpuMsPerCommand: msEach(cpu.postgres, load.commands),
    clientCpuMsPerCommand: msEach(cpu.client, load.commands),
    databaseShare: requestSeconds > 0 ? round(appendSeconds / requestSeconds, 3) : null,
  };
}

/** Section 8's measured run: boardgame.io's server process and PostgreSQL's CPU per move. */
interface BgioMeasured extends BgioLoad {
  serverCpuMsPerMove: number;
  postgresCpuMsPerMove: number;
  /** The bench process's own CPU a move: boardgame.io's clients (two socket.io connections a match). */
  clientCpuMsPerMove: number;
}

/**
 * A database of its own for boardgame.io (its "Games" table) on the bench's server, named
 * like `url` otherwise; the same database when it cannot be created (a DATABASE_URL without
 * the right).
 */
async function bgioDatabase(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = 'bench_bgio'");
    if (!exists.rowCount) await client.query('CREATE DATABASE bench_bgio');
    const u = new URL(url);
    u.pathname = '/bench_bgio';
    return u.toString();
  } catch (error) {
    log(`boardgame.io: could not create a database of its own (${(error as Error).message}); using the bench's`);
    return url;
  } finally {
    await client.end();
  }
}

/**
 * Section 8, tried twice: boardgame.io's server or its socket.io clients can drop a connection
 * (`socket hang up`, once in five runs on 2026-12-06), and that must not cost the run every
 * other section's figures. After a second failure the report goes without it.
 */
async function bgioTried(url: string, poolSize: number): Promise<BgioSection | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await bgioSection(url, poolSize);
    } catch (error) {
      log(`boardgame.io: the section failed (${(error as Error).message}); ${attempt < 2 ? 'once more, with a new server' : 'the report goes without it'}`);
      if (attempt >= 2) return null;
    }
  }
}

/** Section 8's figures: the 20-s run (none with BENCH_ONLY=pairs) and the pairs (none with BENCH_PAIRS=0). */
interface BgioSection {
  run: BgioMeasured | null;
  paired: Paired | null;
}

/** Section 8: boardgame.io's server as its own process on the bench's PostgreSQL, warmed up, then measured; then the pairs. */
async function bgioSection(url: string, poolSize: number): Promise<BgioSection> {
  const bgioUrl = await bgioDatabase(url);
  const server = await startBgioServer(bgioUrl, poolSize);
  try {
    const warm = Math.max(1, Math.min(5, Math.round(config.bgioSeconds / 4)));
    log(`boardgame.io: server at ${server.url}; warm-up ${warm} s with ${config.bgioMatches} matches (not counted)`);
    await bgioLoop(server.url, config.bgioMatches, warm);
    const run = config.only === 'pairs' ? null : await bgioRun(server, config.bgioMatches, config.bgioSeconds);
    const paired = config.pairs > 0 ? await pairedRuns(url, server, bgioUrl) : null;
    return { run, paired };
  } finally {
    await server.stop();
  }
}

/**
 * One measured run of boardgame.io's loop, `matches` new matches for `seconds` or `movesPerMatch`
 * moves each: moves, and its server's and PostgreSQL's CPU per move.
 */
async function bgioRun(server: BgioServer, matches: number, seconds: number, movesPerMatch?: number): Promise<BgioMeasured> {
  log(`boardgame.io: ${matches} matches ${movesPerMatch ? `of ${movesPerMatch} moves each` : `for ${seconds} s`}, moves over socket.io`);
  const { result: load, ...cpu } = await cpuAround(() => server.cpuSeconds(), () => bgioLoop(server.url, matches, seconds, undefined, movesPerMatch));
  return {
    ...load,
    serverCpuMsPerMove: msEach(cpu.server, load.moves),
    postgresCpuMsPerMove: msEach(cpu.postgres, load.moves),
    clientCpuMsPerMove: msEach(cpu.client, load.moves),
  };
}

/**
 * `rounds` REST rounds in a row, each on new games, as one load: a round lasts about 3 s, and
 * the CPU a command costs on this VM moves by a quarter from one 3-s stretch to the next, where
 * boardgame.io's half of a pair lasts some 25 s and averages it out.
 */
async function restRounds(url: string, games: number, commandsPerGame: number, rounds: number): Promise<Load> {
  const loads: Load[] = [];
  for (let i = 0; i < rounds; i++) loads.push(await restLoop(url, games, commandsPerGame));
  const sum = (f: (l: Load) => number) => loads.reduce((a, l) => a + f(l), 0);
  const seconds = sum((l) => l.seconds);
  return {
    name: `REST, ${games} games, ${rounds} rounds`,
    games,
    commands: sum((l) => l.commands),
    requests: sum((l) => l.requests),
    errors: sum((l) => l.errors),
    internalErrors: sum((l) => l.internalErrors),
    unavailable: sum((l) => l.unavailable),
    seconds: round(seconds, 3),
    commandsPerSecond: round(sum((l) => l.commands) / seconds, 1),
    p50Ms: median(loads.map((l) => l.p50Ms)),
    p99Ms: Math.max(...loads.map((l) => l.p99Ms)),
  };
}

/** Said once: this role may not CHECKPOINT. */
let checkpointRefused = false;

/**
 * Before each half of a pair: what the other half left behind, done now and charged to neither.
 * boardgame.io leaves far more (a 200-move match's row, its whole log, rewritten at every
 * move): without this, autovacuum and checkpoints of its writes ran in the REST halves, which
 * read 1,384-1,647 commands/s (PostgreSQL 0.30-0.35 ms a command) in a run whose section 1
 * read 1,975-2,402 (0.20-0.22 ms).
 */
async function settle(urls: string[]) {
  for (const url of urls) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('VACUUM');
      // CHECKPOINT needs a superuser (or pg_checkpoint): a DATABASE_URL of a plain role goes without.
      await client.query('CHECKPOINT').catch((error: { code?: string }) => {
        if (error.code !== '42501') throw error;
        if (!checkpointRefused) log('pairs: CHECKPOINT refused to this role (insufficient privilege); the halves are only vacuumed');
        checkpointRefused = true;
      });
    } finally {
      await client.end();
    }
  }
}

interface Pair {
  restFirst: boolean;
  rest: Measured;
  bgio: BgioMeasured;
  ratio: number;
}

interface Paired {
  pairs: Pair[];
  medianRatio: number;
  minRatio: number;
  maxRatio: number;
}

/**
 * Section 8's pairs: the service's REST rounds (one process, BENCH_PAIR_REST_ROUNDS rounds of the
 * largest BENCH_GAMES new games of BENCH_COMMANDS commands each) and boardgame.io playing as
 * many new matches of as many moves, back to back, each pair's ratio taken from its two halves.
 * On a shared VM whose speed drifts by a third over minutes, the 20-s run above and section 1's
 * rounds can fall in different stretches; a pair's halves are seconds apart. The same games on
 * both sides, because boardgame.io's cost grows with a match's length (bgio-postgres rewrites
 * the whole log at every move): 4-s slices of new matches (some 50 moves each) read 386-399
 * moves/s where matches of 200 moves read 217-256. The order alternates from pair to pair, so a
 * steady drift favours neither. Both servers run throughout, each idle while the other is
 * measured; each half counts only its own server's CPU.
 */
async function pairedRuns(url: string, bgio: BgioServer, bgioUrl: string): Promise<Paired> {
  const games = Math.max(...config.games);
  const server = await startServer(url, 1);
  try {
    log(`pairs: the service at ${server.url}; warm-up: ${config.warmupCommands} REST commands in ${games} games (not counted)`);
    await restLoop(server.url, games, Math.max(1, Math.ceil(config.warmupCommands / games)));
    const pairs: Pair[] = [];
    for (let i = 0; i < config.pairs; i++) {
      const restFirst = i % 2 === 0;
      const runRest = () => measured(server, () => restRounds(server.url, games, config.commandsPerGame, config.pairRestRounds));
      const runBgio = () => bgioRun(bgio, games, Number.POSITIVE_INFINITY, config.commandsPerGame);
      let rest: Measured | undefined;
      let moves: BgioMeasured | undefined;
      for (const half of restFirst ? ['rest', 'bgio'] : ['bgio', 'rest']) {
        await settle([url, bgioUrl]);
        if (half === 'rest') rest = await runRest();
        else moves = await runBgio();
      }
      if (!rest || !moves) throw new Error('a pair lacks a half');
      const ratio = moves.movesPerSecond > 0 ? round(rest.commandsPerSecond / moves.movesPerSecond) : 0;
      pairs.push({ restFirst, rest, bgio: moves, ratio });
      log(`pair ${i + 1} (${restFirst ? 'REST first' : 'boardgame.io first'}): REST ${rest.commandsPerSecond.toFixed(0)}/s, boardgame.io ${moves.movesPerSecond.toFixed(0)}/s: ${ratio.toFixed(2)}x`);
    }
    const ratios = pairs.map((p) => p.ratio);
    return { pairs, medianRatio: round(median(ratios)), minRatio: Math.min(...ratios), maxRatio: Math.max(...ratios) };
  } finally {
    await server.stop();
  }
}

/** BENCH_PG_CONF (with BENCH_PG=system): more postgresql.conf lines, separated by `;`, e.g. auto_explain's settings to see the plans. */
function extraSettings(): string[] {
  return (process.env.BENCH_PG_CONF ?? '').split(';').map((line) => line.trim()).filter(Boolean);
}

/** BENCH_STATEMENTS: where PostgreSQL's time went in the run just measured (pg_stat_statements, reset before it), by execution and planning time. */
async function printStatements(database: Database, what: string) {
  const { rows } = await database.pool.query(
    `SELECT calls, round(total_exec_time::numeric, 1) AS total_ms, round((total_exec_time / NULLIF(calls, 0))::numeric, 3) AS mean_ms, round(total_plan_time::numeric, 1) AS plan_ms, plans,
       left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS query
     FROM pg_stat_statements ORDER BY total_exec_time + total_plan_time DESC LIMIT ${process.env.BENCH_STATEMENTS === 'all' ? 40 : 15}`,
  );
  const all = (await database.pool.query(`SELECT sum(calls)::int AS calls, round(sum(total_exec_time)::numeric, 1) AS exec_ms, round(sum(total_plan_time)::numeric, 1) AS plan_ms FROM pg_stat_statements`)).rows[0];
  console.log('');
  console.log(`statements of ${what} (pg_stat_statements), by total execution and planning time; all statements: ${all.calls} calls, ${all.exec_ms} ms executing, ${all.plan_ms} ms planning`);
  console.log(table(['calls', 'total ms', 'mean ms', 'plan ms', 'plans', 'query'], rows.map((r) => [r.calls, r.total_ms, r.mean_ms, r.plan_ms, r.plans, r.query])));
}

async function main() {
  console.log('wargame-service benchmark');
  console.log(
    `NOTE: figures from a shared, noisy machine (${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}); ` + 'compare runs on the same machine only, and prefer the medians and ratios to single numbers.',
  );
  console.log('');
  if (scalingMode === 'only') return scalingSection();
  if (config.only === 'rules') return rulesTable(runRules(hostedGames));

  let folder: string | undefined;
  let embedded: EmbeddedDatabase | undefined;
  let database: Database | undefined;
  let server: ServerProcess | undefined;
  let cluster: Cluster | undefined;
  const databaseKind = process.env.DATABASE_URL
    ? 'DATABASE_URL'
    : config.pg === 'system'
      ? 'system PostgreSQL 15 (a throw-away cluster, fsync on)'
      : 'embedded PostgreSQL (throw-away)';
  try {
    let url = process.env.DATABASE_URL;
    if (!url && config.pg === 'system') {
      if (!havePg15) throw new Error('BENCH_PG=system needs PostgreSQL 15 in /usr/lib/postgresql/15/bin (or PG15_BIN)');
      // As test/scaling/parts.ts starts them, but durable like the embedded one: fsync on,
      // shared_buffers at PostgreSQL's default.
      cluster = await primaryCluster(['fsync = on', 'shared_buffers = 128MB', ...(['1', 'all'].includes(process.env.BENCH_STATEMENTS ?? '') ? ['shared_preload_libraries = pg_stat_statements', `pg_stat_statements.track = ${process.env.BENCH_STATEMENTS === 'all' ? 'all' : 'top'}`, 'pg_stat_statements.track_planning = on'] : []), ...extraSettings()]);
      log(`system PostgreSQL 15: a throw-away cluster on port ${cluster.port}`);
      url = cluster.url;
    } else if (!url) {
      folder = mkdtempSync(join(tmpdir(), 'wargame-bench-pg-'));
      chmodSync(folder, 0o755); // as root, the server runs as `postgres`, which must enter it
      embedded = await startEmbedded({ dataDir: join(folder, 'data'), persistent: false, log });
      url = embedded.url;
    } else {
      log('using the PostgreSQL server named by DATABASE_URL (use a throw-away database: the bench leaves its games there)');
    }
    database = await openDatabase(url, log);
    // BENCH_STATEMENTS=1 or all (with BENCH_PG=system): pg_stat_statements of the last measured run (all: nested statements too).
    const statements = ['1', 'all'].includes(process.env.BENCH_STATEMENTS ?? '') && config.only !== '';
    if (statements) await database.pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    if (config.only === 'rest') {
      const { rows } = await database.pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      onlyCluster(rows[0]!.pid);
      server = await startServer(url, config.processes[0]!);
      const games = Math.max(...config.games);
      log(`server: ${config.processes[0]} process(es) at ${server.url}; warm-up: ${config.warmupCommands} REST commands in ${games} games (not counted)`);
      await restLoop(server.url, games, Math.max(1, Math.ceil(config.warmupCommands / games)));
      const rest: Measured[] = [];
      const appends: PrismaCost[] = [];
      for (let i = 0; i < config.repeats; i++) {
        if (statements) await database.pool.query('SELECT pg_stat_statements_reset()');
        rest.push(await measured(server, () => restLoop(server!.url, games, config.commandsPerGame)));
        if (statements && i === config.repeats - 1) await printStatements(database, `the last REST round (${rest[i]!.commands} commands)`);
        appends.push(await prismaCost(database, games, 60, 1));
        const r = rest[i]!;
        log(`round ${i + 1}: REST ${r.commandsPerSecond.toFixed(0)}/s (server ${r.serverCpuMsPerCommand} / PostgreSQL ${r.postgresCpuMsPerCommand} / client ${r.clientCpuMsPerCommand} ms CPU a command), the append through pg ${appends[i]!.pgPerSecond}/s`);
      }
      const m = (xs: number[]) => median(xs);
      const restRate = m(rest.map((r) => r.commandsPerSecond));
      const pgRate = m(appends.map((a) => a.pgPerSecond));
      console.log('');
      console.log(`target 1 alone, ${games} games, medians of ${config.repeats} rounds: REST ${restRate.toFixed(0)} commands/s (server ${m(rest.map((r) => r.serverCpuMsPerCommand)).toFixed(2)} / PostgreSQL ${m(rest.map((r) => r.postgresCpuMsPerCommand)).toFixed(2)} ms CPU a command); the append through pg ${pgRate.toFixed(0)}/s; REST as a share of it ${((100 * restRate) / pgRate).toFixed(0)}%`);
      return;
    }
    if (config.only === 'pairs') {
      const measuredPairs = await bgioTried(url, Number(process.env.DATABASE_POOL_SIZE ?? 10));
      if (measuredPairs?.paired) pairedTable(measuredPairs.paired, databaseKind);
      return;
    }
    if (config.only === 'webhooks') {
      const { rows } = await database.pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      onlyCluster(rows[0]!.pid);
      server = await startServer(url, config.processes[0]!);
      log(`server: ${config.processes[0]} process(es) at ${server.url}; warm-up: ${config.warmupCommands} REST commands in 32 games (not counted)`);
      await restLoop(server.url, 32, Math.max(1, Math.ceil(config.warmupCommands / 32)));
      const webhooks: (Measured & WebhookLoad)[] = [];
      for (const hooks of [0, 2]) {
        log(`webhooks: ${config.webhookGames} games of a player, ${hooks} webhook(s) each, ${config.webhookCommands} commands each`);
        let detail: WebhookLoad | undefined;
        const ready = await webhookGames(server!.url, config.webhookGames, hooks);
        if (statements) await database.pool.query('SELECT pg_stat_statements_reset()');
        const m = await measured(server, async () => (detail = await ready.play(config.webhookCommands)));
        webhooks.push({ ...detail!, ...m });
        if (statements) await printStatements(database, `the ${hooks}-webhook run (${m.commands} commands)`);
      }
      webhookTable(webhooks);
      return;
    }

    const loads: Measured[] = [];
    const graphql: Measured[] = [];
    let length: { newGame: { p50Ms: number; p99Ms: number }; longGame: { p50Ms: number; p99Ms: number; events: number } } | null = null;
    let fold: (FoldResult & { gameId: string }) | null = null;
    let bursts: Burst[] = [];
    const webhooks: (Measured & WebhookLoad)[] = [];
    let prisma: PrismaCost[] = [];
    // The core alone, in this process, before any server runs (nothing else on the CPU).
    log('core: commands through createCore on the memory ports (no HTTP, no database)');
    const coreOnly = await runCore(10, 200);
    log('rules: each game played at random through its legalCommands, through the kernel only');
    const rules = runRules(hostedGames);

    for (const processes of config.processes) {
      server = await startServer(url, processes);
      log(`server: ${processes} process(es) at ${server.url}`);
      const warmGames = Math.max(...config.games);
      log(
        `warm-up: ${config.warmupCommands} REST commands in ${warmGames} games, then ${config.graphqlGames} GraphQL games of 20 commands in each loop (not counted)`,
      );
      await restLoop(server.url, warmGames, Math.max(1, Math.ceil(config.warmupCommands / warmGames)));
      for (const mode of ['three', 'carried'] as const) await graphqlRaid(server.url, config.graphqlGames, 20, mode);
      const counts = processes === config.processes[0] ? config.games : [Math.max(...config.games)];
      for (const n of counts) {
        const rounds = processes === config.processes[0] && n === warmGames ? config.restRounds : 1;
        for (let i = 0; i < rounds; i++) {
          log(`REST: ${n} game(s) at once, ${config.commandsPerGame} commands each${rounds > 1 ? ` (round ${i + 1} of ${rounds})` : ''}`);
          loads.push(await measured(server, () => restLoop(server!.url, n, config.commandsPerGame)));
        }
      }
      for (const mode of ['three', 'carried'] as const) {
        log(`GraphQL Raid on Wuchao (${mode}): ${config.graphqlGames} games, ${config.graphqlCommands} commands each`);
        graphql.push(await measured(server, () => graphqlRaid(server!.url, config.graphqlGames, config.graphqlCommands, mode)));
      }
      if (processes === config.processes[0]) {
        log(
          `long game: building ${config.foldEvents} events (rules decided as by the service, appended in batches; snapshot every ${SNAPSHOT_EVERY} versions)`,
        );
        fold = await runFold(database.prisma, hostedGames, config.foldEvents, config.repeats);
        log(`long game: ${fold.events} events; commands in it and in a new game, one at a time`);
        const fresh = await newGuessingGame(server.url);
        const newGame = await sequential(server.url, fresh, 200);
        const longGame = await sequential(
          server.url,
          { id: fold.gameId, tokens: (fold as unknown as { tokens: Record<string, string> }).tokens },
          200,
          (fold as unknown as { nextSeat: number }).nextSeat,
        );
        if (longGame.errors || newGame.errors) log(`(refused commands: long game ${longGame.errors}, new game ${newGame.errors})`);
        length = { newGame, longGame: { ...longGame, events: fold.events } };
        // An older checkout (BENCH_SERVER) has no players or webhooks to measure.
        for (const hooks of process.env.BENCH_SERVER ? [] : [0, 2]) {
          log(`webhooks: ${config.webhookGames} games of a player, ${hooks} webhook(s) each, ${config.webhookCommands} commands each`);
          let detail: WebhookLoad | undefined;
          const ready = await webhookGames(server!.url, config.webhookGames, hooks);
        const m = await measured(server, async () => (detail = await ready.play(config.webhookCommands)));
          webhooks.push({ ...detail!, ...m });
        }
        log(`saturation: ${config.burst} concurrent createGame, then ${config.burst} concurrent commands`);
        bursts = await burst(server.url, config.burst);
        log('Prisma: the append statement through $queryRawUnsafe and through pg, from this process (the server idle)');
        prisma = [await prismaCost(database, 1, 300), await prismaCost(database, Math.max(...config.games), 60)];
      }
      await server.stop();
      server = undefined;
    }
    // No server of the service runs now: boardgame.io has the machine to itself.
    const section = config.bgio ? await bgioTried(url, Number(process.env.DATABASE_POOL_SIZE ?? 10)) : null;
    const bgio = section?.run ? { ...section.run, paired: section.paired } : null;
    report({ loads, graphql, length, fold: fold!, bursts, webhooks, prisma, databaseKind, core: coreOnly, rules, bgio });
  } finally {
    await server?.stop();
    await database?.close();
    await embedded?.stop();
    cluster?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
}

function webhookTable(webhooks: (Measured & WebhookLoad)[]) {
  console.log('');
  console.log("5. Notifications: REST commands in a player's games with 0 and 2 webhooks per game (EVENT_APPENDED, to a receiver in the bench process)");
  console.log("   delivery: from the command's acknowledgement (stored by then) to its POST arriving, through the notifications' dispatcher");
  console.log(
    table(
      [
        'webhooks/game',
        'games',
        'commands',
        'errors',
        'commands/s',
        'p50 ms',
        'p99 ms',
        'deliveries',
        'delivery p50 ms',
        'delivery p99 ms',
        'server CPU ms/cmd',
        'PostgreSQL CPU ms/cmd',
      ],
      webhooks.map((w) => [
        w.webhooksPerGame,
        w.games,
        w.commands,
        w.errors,
        w.commandsPerSecond.toFixed(0),
        w.p50Ms.toFixed(2),
        w.p99Ms.toFixed(2),
        w.deliveries,
        w.webhooksPerGame ? w.deliveryP50Ms.toFixed(1) : '-',
        w.webhooksPerGame ? w.deliveryP99Ms.toFixed(1) : '-',
        w.serverCpuMsPerCommand.toFixed(2),
        w.postgresCpuMsPerCommand.toFixed(2),
      ]),
    ),
  );
}

/** Section 8's pairs: each pair's two halves and its ratio, then the median ratio. */
function pairedTable(paired: Paired, databaseKind: string) {
  const games = Math.max(...config.games);
  console.log('');
  console.log(
    `   Pairs (${databaseKind}): ${config.pairRestRounds} rounds of ${games} new games of ${config.commandsPerGame} commands each through REST (one server process), and ${games} new boardgame.io matches of ${config.commandsPerGame} moves each, back to back, in alternating order`,
  );
  console.log(
    table(
      ['pair', 'first', 'REST/s', 'server ms', 'PG ms', 'client ms', 'bgio moves/s', 'server ms', 'PG ms', 'client ms', 'ratio'],
      paired.pairs.map((p, i) => [
        i + 1,
        p.restFirst ? 'REST' : 'bgio',
        p.rest.commandsPerSecond.toFixed(0),
        p.rest.serverCpuMsPerCommand.toFixed(2),
        p.rest.postgresCpuMsPerCommand.toFixed(2),
        p.rest.clientCpuMsPerCommand.toFixed(2),
        p.bgio.movesPerSecond.toFixed(0),
        p.bgio.serverCpuMsPerMove.toFixed(2),
        p.bgio.postgresCpuMsPerMove.toFixed(2),
        p.bgio.clientCpuMsPerMove.toFixed(2),
        `${p.ratio.toFixed(2)}x`,
      ]),
    ),
  );
  console.log(`   REST / boardgame.io, pairs: median ${paired.medianRatio.toFixed(2)}x (from ${paired.minRatio.toFixed(2)}x to ${paired.maxRatio.toFixed(2)}x)`);
}

/** Section 7's second table: what each game's rules cost a command, through the kernel only. */
function rulesTable(rules: RulesResult[]) {
  console.log('');
  console.log(`   The rules alone: random games through legalCommands, through the kernel only (no core, no ports); medians of ${rules[0]?.rounds ?? 0} rounds`);
  console.log(
    table(
      ['game', 'games', 'commands a round', 'legalCommands µs', 'one turn µs'],
      rules.map((x) => [x.game, x.games, x.commands, x.legalUs.toFixed(1), x.turnUs.toFixed(1)]),
    ),
  );
}

function report(r: {
  loads: Measured[];
  graphql: Measured[];
  length: { newGame: { p50Ms: number; p99Ms: number }; longGame: { p50Ms: number; p99Ms: number; events: number } } | null;
  fold: FoldResult & { gameId: string };
  bursts: Burst[];
  webhooks: (Measured & WebhookLoad)[];
  prisma: PrismaCost[];
  databaseKind: string;
  core: CoreResult;
  rules: RulesResult[];
  bgio: (BgioMeasured & { paired: Paired | null }) | null;
}) {
  const row = (m: Measured) => [
    m.processes,
    m.games,
    m.commands,
    m.requests,
    m.errors,
    m.internalErrors,
    m.unavailable,
    m.commandsPerSecond.toFixed(0),
    m.p50Ms.toFixed(2),
    m.p99Ms.toFixed(2),
    m.serverCpuMsPerCommand.toFixed(2),
    m.postgresCpuMsPerCommand.toFixed(2),
    m.clientCpuMsPerCommand.toFixed(2),
    m.databaseShare === null ? 'n/a' : `${(m.databaseShare * 100).toFixed(0)}%`,
  ];
  const headers = [
    'processes',
    'games',
    'commands',
    'requests',
    'errors',
    '500s',
    '503s',
    'commands/s',
    'p50 ms',
    'p99 ms',
    'server CPU ms/cmd',
    'PostgreSQL CPU ms/cmd',
    'client CPU ms/cmd',
    'time in database',
  ];
  console.log('');
  console.log(`1. Commands through REST (POST /api/games/:id/commands, one client loop per game, one request per command; database: ${r.databaseKind})`);
  console.log(table(headers, r.loads.map(row)));
  console.log('');
  console.log('2. A real game through GraphQL (Raid on Wuchao, both seats played by one loop per game, choosing among legalCommands)');
  console.log(
    '   three: status, legalCommands as the awaited seat, submitCommand with expectedVersion; carried: the submit answer carries awaiting and legalCommands',
  );
  console.log(
    table(
      ['mode', ...headers],
      r.graphql.map((m) => [m.name.includes('carries') ? 'carried' : 'three', ...row(m)]),
    ),
  );
  if (r.length) {
    console.log('');
    console.log(`3. Flat with game length: one command at a time, in a new game and in a game of ${r.length.longGame.events} events`);
    console.log(
      table(
        ['game', 'p50 ms', 'p99 ms'],
        [
          ['new', r.length.newGame.p50Ms.toFixed(2), r.length.newGame.p99Ms.toFixed(2)],
          [`${r.length.longGame.events} events`, r.length.longGame.p50Ms.toFixed(2), r.length.longGame.p99Ms.toFixed(2)],
        ],
      ),
    );
  }
  const w = r.fold.withoutSnapshots;
  const s = r.fold.withSnapshots;
  console.log('');
  console.log(`   Loading that game cold (fresh folded states, no in-process cache); median of ${r.fold.repeats} loads after one warm-up`);
  console.log(
    table(
      ['load', 'events folded', 'median ms', 'min ms', 'max ms'],
      [
        ['without snapshots', w.eventsFolded, w.medianMs.toFixed(2), w.minMs.toFixed(2), w.maxMs.toFixed(2)],
        [`with snapshot (v${s.fromVersion})`, s.eventsFolded, s.medianMs.toFixed(2), s.minMs.toFixed(2), s.maxMs.toFixed(2)],
      ],
    ),
  );
  console.log(
    `   without snapshots: reading the rows ${r.fold.readAllEventsMs.toFixed(2)} ms, folding them ${r.fold.inMemoryFoldMs.toFixed(2)} ms (${r.fold.inMemoryEventsPerSecond} events/s)`,
  );
  console.log('');
  console.log('4. Saturation: requests arriving all at once');
  console.log(
    table(
      ['what', 'requests', 'answers by status', '500s', '503s', 'seconds'],
      r.bursts.map((b) => [
        b.what,
        b.requests,
        Object.entries(b.byStatus)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', '),
        b.internalErrors,
        b.unavailable,
        b.seconds.toFixed(2),
      ]),
    ),
  );

  if (r.webhooks.length) webhookTable(r.webhooks);

  if (r.prisma.length) {
    console.log('');
    console.log(
      "6. What Prisma adds: the append statement (same SQL and parameters, a named prepared statement) through Prisma's $queryRawUnsafe and through pg, on the same pool",
    );
    console.log("   the bench process's CPU per statement (Node), medians of alternating rounds; PostgreSQL does the same work either way");
    console.log(
      table(
        ['concurrent games', 'statements/round', 'Prisma CPU ms', 'pg CPU ms', 'Prisma adds ms', 'Prisma appends/s', 'pg appends/s'],
        r.prisma.map((p) => [
          p.concurrency,
          p.statements,
          p.prismaCpuMs.toFixed(3),
          p.pgCpuMs.toFixed(3),
          (p.prismaCpuMs - p.pgCpuMs).toFixed(3),
          p.prismaPerSecond,
          p.pgPerSecond,
        ]),
      ),
    );
  }

  console.log('');
  console.log(
    '7. The core alone: commands through createCore on the memory ports (no HTTP, no database; the memory ports copy every record in and out), in the bench process',
  );
  console.log(
    table(
      ['games', 'commands', 'median µs/command', 'commands/s'],
      [[r.core.games, r.core.commands, r.core.medianUsPerCommand.toFixed(1), r.core.commandsPerSecond]],
    ),
  );
  rulesTable(r.rules);

  let sideBySide: Record<string, number | null> | null = null;
  if (r.bgio) {
    const b = r.bgio;
    const games = Math.max(...config.games);
    // A round of REST lasts about 3 s against boardgame.io's 20: the median of its rounds, so that
    // one slow stretch of a shared machine does not make the ratio.
    const rounds = r.loads.filter((m) => m.processes === config.processes[0] && m.games === games).sort((a, b) => a.commandsPerSecond - b.commandsPerSecond);
    const rest = rounds[Math.floor((rounds.length - 1) / 2)];
    const pgAppends = r.prisma.find((p) => p.concurrency === games)?.pgPerSecond ?? null;
    console.log('');
    console.log(
      `8. boardgame.io side by side: boardgame.io 0.50 + bgio-postgres, its server as its own process on the same PostgreSQL (a database of its own), ${b.matches} matches of the guessing game, two boardgame.io clients (socket.io) a match, ${config.bgioSeconds} s`,
    );
    console.log("   a move counts when the server's update carrying it reaches a client; boardgame.io sends it before it writes the state");
    console.log(
      table(
        ['matches', 'moves', 'stalled', 's', 'moves/s', 'p50 ms', 'p99 ms', 'server CPU ms/move', 'PostgreSQL CPU ms/move'],
        [[b.matches, b.moves, b.stalled, b.seconds, b.movesPerSecond.toFixed(0), b.p50Ms.toFixed(2), b.p99Ms.toFixed(2), b.serverCpuMsPerMove.toFixed(2), b.postgresCpuMsPerMove.toFixed(2)]],
      ),
    );
    if (rest) {
      sideBySide = {
        restGames: games,
        restCommandsPerSecond: rest.commandsPerSecond,
        restRounds: rounds.length,
        bgioMovesPerSecond: b.movesPerSecond,
        ratio: b.movesPerSecond > 0 ? round(rest.commandsPerSecond / b.movesPerSecond) : null,
        pgAppendsPerSecond: pgAppends,
        restShareOfAppend: pgAppends ? round(rest.commandsPerSecond / pgAppends, 3) : null,
        restServerCpuMsPerCommand: rest.serverCpuMsPerCommand,
        restPostgresCpuMsPerCommand: rest.postgresCpuMsPerCommand,
        bgioServerCpuMsPerMove: b.serverCpuMsPerMove,
        bgioPostgresCpuMsPerMove: b.postgresCpuMsPerMove,
        pairedMedianRatio: b.paired?.medianRatio ?? null,
        pairedMinRatio: b.paired?.minRatio ?? null,
        pairedMaxRatio: b.paired?.maxRatio ?? null,
      };
      console.log('');
      console.log(`   In this run (${r.databaseKind}), ${games} games at once, one server process:`);
      console.log(
        table(
          ['', 'per second', 'server CPU ms each', 'PostgreSQL CPU ms each'],
          [
            [`REST commands (section 1${rounds.length > 1 ? `, median of ${rounds.length} rounds` : ''})`, rest.commandsPerSecond.toFixed(0), rest.serverCpuMsPerCommand.toFixed(2), rest.postgresCpuMsPerCommand.toFixed(2)],
            ['boardgame.io moves', b.movesPerSecond.toFixed(0), b.serverCpuMsPerMove.toFixed(2), b.postgresCpuMsPerMove.toFixed(2)],
            ['append statement through pg (section 6)', pgAppends === null ? 'n/a' : pgAppends, '', ''],
          ],
        ),
      );
      console.log(
        `   REST / boardgame.io: ${sideBySide.ratio === null ? 'n/a' : `${sideBySide.ratio.toFixed(2)}x`}; REST as a share of the append through pg: ${
          sideBySide.restShareOfAppend === null ? 'n/a' : `${(sideBySide.restShareOfAppend * 100).toFixed(0)}%`
        }`,
      );
    }
    if (b.paired) pairedTable(b.paired, r.databaseKind);
  }

  const results = {
    generatedAt: new Date().toISOString(),
    note: 'Shared, noisy machine: compare runs on the same machine only; prefer medians and ratios.',
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? null,
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      loadavg: loadavg().map((l) => round(l)),
    },
    database: r.databaseKind,
    config: { ...config, snapshotEvery: SNAPSHOT_EVERY },
    rest: r.loads,
    graphql: r.graphql,
    length: r.length,
    fold: { ...r.fold, gameId: undefined, tokens: undefined },
    saturation: r.bursts,
    webhooks: r.webhooks,
    prisma: r.prisma,
    core: r.core,
    rules: r.rules,
    bgio: r.bgio,
    sideBySide,
  };
  const dir = new URL('./results/', import.meta.url).pathname;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log('');
  console.log('figures written to bench/results/latest.json');
}

main()
  .then(() => (scalingMode === '1' ? scalingSection() : undefined))
  .then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
