/**
 * `npm run bench:graphql`: the GraphQL three-request loop alone, and what each of its three
 * requests costs the server (bench/README.md, "GraphQL per request").
 *
 * The per-request figures come from a lockstep run of the same loop: every game asks its
 * status at once, the server goes idle, every game asks legalCommands, idle, every game
 * submits, idle; the server's CPU (its threads' run time from /proc/<pid>/task/<tid>/schedstat,
 * in nanoseconds) is read around each phase, so each phase's CPU is that request kind's alone
 * at the same concurrency and on the same games as the free-running loop. Beside them (KINDS):
 * a bare request's, the submits' reactions after their answers, and the same bare request to
 * fastify and mercurius alone (bench/reference-server.ts), this machine's yardstick.
 *
 * BENCH_CLIENT=fetch sends the loop's requests with fetch (undici) instead of node:http.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbedded } from '../src/persistence/embedded.ts';
import { openDatabase } from '../src/persistence/database.ts';
import { chooser } from '../test/support/play.ts';
import { gql } from './client.ts';
import { graphqlRaid, LEGAL, STATUS, SUBMIT, createRaid } from './scenarios.ts';
import { freePort, postgresCpuSince, postgresTicks, startServer, type ServerProcess } from './server.ts';
import { round } from './stats.ts';

/** CPU nanoseconds used so far by every thread of a process and of the processes below it. */
export function treeCpuNanos(pid: number): number {
  let ns = 0;
  const visit = (p: number) => {
    try {
      for (const tid of readdirSync(`/proc/${p}/task`)) {
        try {
          ns += Number(readFileSync(`/proc/${p}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
        } catch {
          /* gone */
        }
      }
      for (const tid of readdirSync(`/proc/${p}/task`)) {
        for (const c of readFileSync(`/proc/${p}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) visit(Number(c));
      }
    } catch {
      /* gone */
    }
  };
  visit(pid);
  return ns;
}

/** The main process's user and system CPU ticks (its threads together). */
function userSys(pid: number): { user: number; sys: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]), sys: Number(fields[12]) };
}

export interface PerRequest {
  games: number;
  rounds: number;
  /** Server CPU ms per request of each kind, and PostgreSQL's. */
  serverMs: Record<Kind, number>;
  postgresMs: Record<Kind, number>;
  requests: Record<Kind, number>;
}

/**
 * The loop's three requests, and two more windows:
 * - `bare`: `{ __typename }` from every game in its own phase, a GraphQL request that reads
 *   nothing (HTTP, fastify's hooks, mercurius). It is the floor the three stand on, measured in
 *   the same slices: where the VM is slower, it is too.
 * - `reactions`: REACTIONS_MS after the submits' answers, with no request out. What a commit
 *   sets off after its answer (the outbox, the notifications, coalesced over 10 ms) runs then,
 *   instead of in the next round's status phase, which read it until round nineteen.
 */
const KINDS = ['status', 'legalCommands', 'submitCommand', 'bare', 'reactions'] as const;
const REACTIONS_MS = 30;
type Kind = (typeof KINDS)[number];
const BARE = 'query Bare { __typename }';
const perKind = () => Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;

async function bareRequest(url: string) {
  const a = await gql(url, BARE, {});
  if (a.status !== 200 || a.body.data?.__typename !== 'Query') throw new Error(`bare request: ${JSON.stringify(a.body).slice(0, 300)}`);
}

/** The reference server (bench/reference-server.ts), started beside the service's. */
async function startReference(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'reference-server.ts')], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => String(d).includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`the reference server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

/** Server CPU ms a bare request, `games` at once, `rounds` times. */
async function bareOnly(url: string, pid: number, games: number, rounds: number): Promise<{ ms: number; requests: number }> {
  let ns = 0;
  for (let r = 0; r < rounds; r++) {
    const before = treeCpuNanos(pid);
    await Promise.all(Array.from({ length: games }, () => bareRequest(url)));
    ns += treeCpuNanos(pid) - before;
  }
  return { ms: ns / 1e6 / (games * rounds), requests: games * rounds };
}

/** The games a lockstep run plays, kept from one slice of rounds to the next. */
export type LockstepGames = { game: Awaited<ReturnType<typeof createRaid>>; choose: (n: number) => number; version: number; seat: string; legal: { type: string }[]; live: boolean }[];

/**
 * `games` Raid games played in lockstep for `rounds` rounds of the three requests, the
 * server's CPU measured around each phase. `playing`: games to go on with (a run measured in
 * slices), else new ones; a slice that started new games each time measured only their
 * first moves, Yuan's setup placements (the longest `legalCommands`), until round twelve.
 */
export async function perRequest(server: ServerProcess, games: number, rounds: number, playing?: LockstepGames): Promise<PerRequest> {
  const pid = server.child.pid!;
  const url = server.url;
  const state: LockstepGames = playing ?? [];
  if (state.length === 0) state.push(...(await Promise.all(Array.from({ length: games }, async (_, i) => ({ game: await createRaid(url), choose: chooser(i + 1), version: 0, seat: '', legal: [] as { type: string }[], live: true })))));
  const cpu = perKind();
  const pgCpu = perKind();
  const count = perKind();
  const phase = async (kind: Kind, each: (s: (typeof state)[number]) => Promise<void>) => {
    const live = state.filter((s) => s.live);
    const startedUs = process.hrtime.bigint() / 1000n;
    const before = treeCpuNanos(pid);
    const pg = postgresTicks();
    await Promise.all(live.map(each));
    cpu[kind] += treeCpuNanos(pid) - before;
    pgCpu[kind] += postgresCpuSince(pg);
    count[kind] += live.length;
    // For a profile of the server (BENCH_SERVER_NODE_ARGS=--cpu-prof): V8's sample times and
    // hrtime are both CLOCK_MONOTONIC, so these windows cut the profile by request kind.
    if (process.env.BENCH_PHASES_FILE) appendFileSync(process.env.BENCH_PHASES_FILE, `${kind} ${startedUs} ${process.hrtime.bigint() / 1000n} ${live.length}\n`);
  };
  const MATCH = new Set(['resign', 'offerDraw', 'acceptDraw', 'declineDraw']);
  for (let r = 0; r < rounds; r++) {
    for (const s of state) s.live = true;
    await phase('status', async (s) => {
      const g = (await gql(url, STATUS, { id: s.game.id })).body.data?.game;
      if (!g || g.status === 'FINISHED' || g.awaiting.length === 0) s.live = false;
      else {
        s.version = g.version;
        s.seat = g.awaiting[0].seat;
      }
    });
    await phase('legalCommands', async (s) => {
      s.legal = ((await gql(url, LEGAL, { id: s.game.id }, s.game.tokens[s.seat])).body.data?.game?.legalCommands ?? []).filter((c: { type: string }) => !MATCH.has(c.type));
      if (s.legal.length === 0) s.live = false;
    });
    // Before the submits, not after: a commit's reactions (the outbox, the notifications) run
    // on after its answer, into the phase that follows it.
    await phase('bare', () => bareRequest(url));
    await phase('submitCommand', async (s) => {
      const command = s.legal[s.choose(s.legal.length)];
      const a = await gql(url, SUBMIT, { id: s.game.id, c: command, v: s.version }, s.game.tokens[s.seat]);
      if (a.status !== 200 || a.body.errors) throw new Error(`submitCommand: ${JSON.stringify(a.body).slice(0, 300)}`);
    });
    // Counted a submit each, the games that submitted.
    await phase('reactions', () => new Promise((resolve) => setTimeout(resolve, REACTIONS_MS)));
    // A finished game is replaced (outside the measured phases).
    await Promise.all(
      state.map(async (s, i) => {
        if (!s.live) state[i] = { game: await createRaid(url), choose: s.choose, version: 0, seat: '', legal: [], live: true };
      }),
    );
  }
  const ms = (k: Kind) => round(cpu[k] / 1e6 / Math.max(1, count[k]), 3);
  const pgMs = (k: Kind) => round((pgCpu[k] * 1000) / Math.max(1, count[k]), 3);
  return {
    games,
    rounds,
    serverMs: Object.fromEntries(KINDS.map((k) => [k, ms(k)])) as Record<Kind, number>,
    postgresMs: Object.fromEntries(KINDS.map((k) => [k, pgMs(k)])) as Record<Kind, number>,
    requests: count,
  };
}

async function main() {
  const games = Number(process.env.BENCH_GRAPHQL_GAMES ?? 32);
  const commands = Number(process.env.BENCH_GRAPHQL_COMMANDS ?? 60);
  const repeats = Number(process.env.BENCH_REPEATS ?? 3);
  const rounds = Number(process.env.BENCH_LOCKSTEP_ROUNDS ?? 40);
  console.log(`GraphQL three-request loop: ${games} games, ${commands} commands each; lockstep ${rounds} rounds; client ${process.env.BENCH_CLIENT ?? 'node:http'}; ${cpus().length} CPUs, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  let url = process.env.DATABASE_URL;
  let folder: string | undefined;
  let embedded: Awaited<ReturnType<typeof startEmbedded>> | undefined;
  if (!url) {
    folder = mkdtempSync(join(tmpdir(), 'wargame-bench-pg-'));
    chmodSync(folder, 0o755);
    embedded = await startEmbedded({ dataDir: join(folder, 'data'), persistent: false, log: () => {} });
    url = embedded.url;
    if (process.env.BENCH_UNIX === '1') {
      const u = new URL(url);
      url = `postgresql://${u.username}:${u.password}@localhost:${u.port}${u.pathname}?host=/tmp`;
    }
  }
  const database = await openDatabase(url, () => {});
  await database.close?.();
  // BENCH_COMPARE: another checkout's serve script, run beside this one on the same database;
  // both are measured in alternating slices, so a load that comes and goes hits both alike.
  const compare = process.env.BENCH_COMPARE;
  const servers: { name: string; server: ServerProcess }[] = [{ name: 'this', server: await startServer(url, 1, process.env.BENCH_SERVER) }];
  // Several, comma-separated: compare, compare2, ...
  for (const [i, script] of (compare ?? '').split(',').filter(Boolean).entries()) servers.push({ name: i === 0 ? 'compare' : `compare${i + 1}`, server: await startServer(url, 1, script) });
  // BENCH_VARIANTS="name:VAR=value,VAR2=value;name2:..." more servers of this checkout (or
  // BENCH_SERVER's) with those variables set, measured in the same alternating slices. A value
  // may hold '=' (NODE_OPTIONS=--max-semi-space-size=32).
  for (const variant of (process.env.BENCH_VARIANTS ?? '').split(';').filter(Boolean)) {
    const [name, vars = ''] = variant.split(':');
    const env = Object.fromEntries(vars.split(',').filter(Boolean).map((kv) => /^([^=]*)=?(.*)$/.exec(kv)!.slice(1, 3)));
    servers.push({ name: name!, server: await startServer(url, 1, process.env.BENCH_SERVER, env) });
  }
  const reference = await startReference();
  const labelled = servers.length > 1;
  const server = servers[0]!.server;
  try {
    const slice = 5;
    // Warm-up (not counted): V8 optimises the paths first. The free loops alone left V8
    // compiling a pass's worth of its top tier (TurboFan) during the first lockstep pass
    // (--trace-opt: about 0.8 s of compiling in it against 0.1-0.15 s in the next passes),
    // so a whole lockstep pass, cut in slices as the measured ones are, comes last.
    for (const { server: s } of servers) {
      for (let i = 0; i < 3; i++) await graphqlRaid(s.url, games, 30, 'three');
      const warming: LockstepGames = [];
      for (let r = 0; r < rounds; r += slice) await perRequest(s, games, Math.min(slice, rounds - r), warming);
    }
    await bareOnly(reference.url, reference.child.pid!, games, 4 * rounds);
    for (let i = 0; i < repeats; i++) {
      const sums = servers.map(() => ({ ms: perKind(), n: perKind() }));
      // Each server's games go on from slice to slice: the rounds measured are the games' first `rounds` moves.
      const playing: LockstepGames[] = servers.map(() => []);
      const yardstick = { ms: 0, n: 0 };
      for (let r = 0; r < rounds; r += slice) {
        const b = await bareOnly(reference.url, reference.child.pid!, games, Math.min(slice, rounds - r));
        yardstick.ms += b.ms * b.requests;
        yardstick.n += b.requests;
        for (const [k, { server: s }] of servers.entries()) {
          const p = await perRequest(s, games, Math.min(slice, rounds - r), playing[k]);
          for (const kind of KINDS) {
            sums[k]!.ms[kind] += p.serverMs[kind] * p.requests[kind];
            sums[k]!.n[kind] += p.requests[kind];
          }
        }
      }
      for (const [k, { name }] of servers.entries()) {
        const m = (kind: Kind) => round(sums[k]!.ms[kind] / Math.max(1, sums[k]!.n[kind]), 3);
        console.log(`lockstep${labelled ? ` [${name}]` : ''}: server CPU ms/request status ${m('status')}, legalCommands ${m('legalCommands')}, submitCommand ${m('submitCommand')}; a bare request ({ __typename }) ${m('bare')}; the submits' reactions after their answers ${m('reactions')} a command`);
      }
      console.log(`lockstep: the same bare request to fastify and mercurius alone (bench/reference-server.ts) ${round(yardstick.ms / Math.max(1, yardstick.n), 3)} ms`);
      // Every other repeat in the other order: the first loop after the lockstep slices ran slower,
      // with more PostgreSQL CPU, whichever checkout it was (bench/README.md, round eight).
      for (const { name, server: s } of i % 2 ? [...servers].reverse() : servers) {
        const before = treeCpuNanos(s.child.pid!);
        const ticks = userSys(s.child.pid!);
        const pg = postgresTicks();
        const load = await graphqlRaid(s.url, games, commands, 'three');
        const serverMs = (treeCpuNanos(s.child.pid!) - before) / 1e6;
        const after = userSys(s.child.pid!);
        const sys = (after.sys - ticks.sys) / Math.max(1, after.user - ticks.user + after.sys - ticks.sys);
        console.log(
          `three-request loop${labelled ? ` [${name}]` : ''}: ${load.commandsPerSecond} commands/s, p50 ${load.p50Ms} ms, server CPU ${round(serverMs / load.commands, 3)} ms/command (${round(serverMs / load.requests, 3)} ms/request), PostgreSQL ${round((postgresCpuSince(pg) * 1000) / load.commands, 3)} ms/command, server in the kernel ${Math.round(sys * 100)}%, errors ${load.errors}`,
        );
      }
    }
  } finally {
    for (const { server: s } of servers) await s.stop();
    reference.child.kill();
    await embedded?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
