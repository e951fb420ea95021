/**
 * Section 8 of the bench: boardgame.io 0.50 with bgio-postgres side by side with the
 * service. The guessing game of the REST loop written for boardgame.io (two players guess
 * in turn, north then east; when both have guessed the server rolls a die and whoever
 * guessed at most the roll scores their guess; the opponent's guess of the current round is
 * hidden), served by bench/bgio-serve.ts as its own process on the bench's PostgreSQL, and
 * played by boardgame.io's own client (`boardgame.io/client` over socket.io) in this
 * process: matches are created and joined through boardgame.io's REST lobby API, moves go
 * over socket.io, which is what boardgame.io offers for moves.
 *
 * A move counts when the server's update carrying it reaches a client of its match (the
 * next mover moves on its own client's update). boardgame.io sends that update before it
 * writes the state (bgio-postgres: a transaction that locks, reads and rewrites the match's
 * row with its whole log, then an upsert of the metadata); its per-match queue holds the
 * next move until the write is done. So its acknowledgement is not a durable one, which
 * favours it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Ctx, Game } from 'boardgame.io';
import { Client } from 'boardgame.io/client';
import { SocketIO } from 'boardgame.io/multiplayer';
import { request } from './client.ts';
import { freePort, treeCpuSeconds } from './server.ts';
import { msSince, quantile, round } from './stats.ts';

const ROOT = new URL('../', import.meta.url).pathname;

export interface GuessG {
  target: number;
  round: number;
  guesses: Record<string, number>;
  scores: Record<string, number>;
  lastRoll: number | null;
  winner: string | null;
}

/** The guessing game for boardgame.io: one move a turn, the die rolled by the server once both have guessed. */
export const bgioGuessing: Game<GuessG> = {
  name: 'guessing',
  minPlayers: 2,
  maxPlayers: 2,
  setup: (_ctx, setupData?: { target?: number }) => ({
    target: setupData?.target ?? 10,
    round: 1,
    guesses: {},
    scores: { '0': 0, '1': 0 },
    lastRoll: null,
    winner: null,
  }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    guess: {
      // Played on the server only (the die is the server's), as the service decides.
      client: false,
      move: ({ G, playerID, random }, number: number) => {
        const guesses = { ...G.guesses, [playerID]: number };
        if (Object.keys(guesses).length < 2) return { ...G, guesses };
        const roll = random.D6();
        const scores = { ...G.scores };
        for (const [p, g] of Object.entries(guesses)) if (g <= roll) scores[p] = (scores[p] ?? 0) + g;
        const winner = Object.keys(scores).find((p) => scores[p]! >= G.target) ?? null;
        return { ...G, round: G.round + 1, guesses: {}, scores, lastRoll: roll, winner };
      },
    },
  },
  endIf: ({ G }) => (G.winner ? { winner: G.winner } : undefined),
  // A guess stays secret from the opponent until the die of its round has been rolled.
  playerView: ({ G, playerID }) => ({
    ...G,
    guesses: Object.fromEntries(Object.entries(G.guesses).map(([p, g]) => [p, p === playerID ? g : 0])),
  }),
};

export interface BgioServer {
  url: string;
  child: ChildProcess;
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/** bench/bgio-serve.ts as its own process, on `databaseUrl`; ready once its lobby API answers. */
export async function startBgioServer(databaseUrl: string, poolSize: number): Promise<BgioServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [...(process.env.BENCH_SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []), '--import', 'tsx', 'bench/bgio-serve.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), NODE_ENV: 'production', DATABASE_POOL_SIZE: String(poolSize) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the boardgame.io server exited with ${child.exitCode}`);
    const ready = await request(url, 'GET', '/games').catch(() => null);
    if (ready?.status === 200) break;
    if (Date.now() > deadline) throw new Error('the boardgame.io server did not become ready in 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    cpuSeconds: () => treeCpuSeconds(child.pid!),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

export interface BgioLoad {
  matches: number;
  moves: number;
  /** Matches whose move got no update within 10 s (the loop gives up on them). */
  stalled: number;
  seconds: number;
  movesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

interface Match {
  id: string;
  credentials: [string, string];
}

/**
 * A lobby call, sent again once if its kept-alive connection was closed under it: boardgame.io's
 * server (koa on node:http) closes a connection idle for 5 s, and the measured run's first calls
 * come about 5 s after the warm-up's last ('socket hang up': the call never reached it).
 */
async function lobby(url: string, path: string, body: unknown): Promise<Awaited<ReturnType<typeof request>>> {
  try {
    return await request(url, 'POST', path, body);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ECONNRESET') throw error;
    return request(url, 'POST', path, body);
  }
}

async function createMatch(url: string, target: number): Promise<Match> {
  const created = await lobby(url, `/games/${bgioGuessing.name}/create`, { numPlayers: 2, setupData: { target } });
  if (created.status !== 200) throw new Error(`boardgame.io create answered ${created.status}: ${created.text.slice(0, 200)}`);
  const id = created.json().matchID as string;
  const credentials: string[] = [];
  for (const [playerID, playerName] of [
    ['0', 'north'],
    ['1', 'east'],
  ]) {
    const joined = await lobby(url, `/games/${bgioGuessing.name}/${id}/join`, { playerID, playerName });
    if (joined.status !== 200) throw new Error(`boardgame.io join answered ${joined.status}: ${joined.text.slice(0, 200)}`);
    credentials.push(joined.json().playerCredentials as string);
  }
  return { id, credentials: credentials as [string, string] };
}

/**
 * `matches` matches at once, each played by two boardgame.io clients (one socket.io
 * connection a player) for `seconds`, or until each has had `movesPerMatch` moves: the player
 * to move guesses 1 as soon as its own client has the update that makes it the current player.
 */
export async function bgioLoop(url: string, matches: number, seconds: number, target = 1_000_000, movesPerMatch = Number.POSITIVE_INFINITY): Promise<BgioLoad> {
  const created = await Promise.all(Array.from({ length: matches }, () => createMatch(url, target)));
  const latencies: number[] = [];
  let stalled = 0;
  let start = 0n;
  let deadline = Number.POSITIVE_INFINITY;
  const clients: ReturnType<typeof Client<GuessG>>[] = [];
  const plays = created.map(
    (match) =>
      new Promise<void>((resolve) => {
        let acked = -1; // the highest stateID a client of this match has seen
        let sentAt: bigint | null = null;
        let moved = -1; // the stateID the last move was made at
        let played = 0; // moves acknowledged in this match
        let watchdog: NodeJS.Timeout | undefined;
        const finish = () => {
          clearTimeout(watchdog);
          resolve();
        };
        const arm = () => {
          clearTimeout(watchdog);
          watchdog = setTimeout(() => {
            stalled++;
            finish();
          }, 10_000);
        };
        const pair = (['0', '1'] as const).map((playerID, i) =>
          Client<GuessG>({
            game: bgioGuessing,
            numPlayers: 2,
            multiplayer: SocketIO({ server: url }),
            matchID: match.id,
            playerID,
            credentials: match.credentials[i],
            debug: false,
          }),
        );
        clients.push(...pair);
        const onState = (client: (typeof pair)[number], state: { _stateID: number; ctx: Ctx } | null) => {
          if (!state) return;
          if (state._stateID > acked) {
            acked = state._stateID;
            if (sentAt !== null) {
              latencies.push(msSince(sentAt));
              sentAt = null;
              played++;
            }
          }
          if (state.ctx.gameover || played >= movesPerMatch) return finish();
          if (state.ctx.currentPlayer !== client.playerID || state._stateID <= moved || sentAt !== null) return;
          if (start === 0n) return; // not started yet: every match starts together below
          if (Date.now() >= deadline) return finish();
          moved = state._stateID;
          sentAt = process.hrtime.bigint();
          arm();
          client.moves.guess!(1);
        };
        for (const client of pair) {
          client.subscribe((state) => onState(client, state));
          client.start();
        }
        (match as Match & { kick?: () => void }).kick = () => {
          for (const client of pair) onState(client, client.getState());
          arm();
        };
      }),
  );
  // Wait until every client has its match's state, then start all the matches together.
  const syncDeadline = Date.now() + 30_000;
  while (clients.some((c) => !c.getState()) && Date.now() < syncDeadline) await new Promise((r) => setTimeout(r, 20));
  start = process.hrtime.bigint();
  deadline = Date.now() + seconds * 1000;
  for (const match of created) (match as Match & { kick?: () => void }).kick?.();
  await Promise.all(plays);
  const elapsed = msSince(start) / 1000;
  for (const client of clients) client.stop();
  return {
    matches,
    moves: latencies.length,
    stalled,
    seconds: round(elapsed, 3),
    movesPerSecond: round(latencies.length / elapsed, 1),
    p50Ms: round(quantile(latencies, 0.5)),
    p99Ms: round(quantile(latencies, 0.99)),
  };
}
