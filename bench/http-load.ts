/**
 * Commands through the HTTP API: N games played at once, one client loop per game,
 * each submitting guesses for the seats the round still awaits (north, then east).
 */
import { msSince, quantile, round } from './stats.ts';

const SEATS = ['north', 'east'] as const;

export interface LoadResult {
  games: number;
  commandsPerGame: number;
  commands: number;
  errors: number;
  /** Games that finished during the run and were replaced by a new one (not expected). */
  replacedGames: number;
  seconds: number;
  commandsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /**
   * CPU time of this whole process (server and client loops share it) per command, ms:
   * less sensitive than wall-clock figures to other work on a shared machine.
   */
  cpuMsPerCommand: number;
}

interface BenchGame {
  id: string;
  tokens: Record<string, string>;
}

export class HttpClient {
  /** Ids of every game created, for clean-up. */
  readonly created: string[] = [];

  constructor(
    readonly baseUrl: string,
    readonly target: number,
  ) {}

  async createGame(): Promise<BenchGame> {
    const res = await fetch(`${this.baseUrl}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'guessing-game',
        options: { target: this.target },
        seats: SEATS.map((seat) => ({ seat, name: `bench-${seat}` })),
      }),
    });
    const body = (await res.json()) as { game?: { id: string }; seatTokens?: { seat: string; token: string }[]; error?: unknown };
    if (res.status !== 201 || !body.game || !body.seatTokens) throw new Error(`POST /api/games answered ${res.status}: ${JSON.stringify(body)}`);
    this.created.push(body.game.id);
    return { id: body.game.id, tokens: Object.fromEntries(body.seatTokens.map((t) => [t.seat, t.token])) };
  }

  /** One command; resolves to the HTTP status and whether the game is now finished. */
  async guess(game: BenchGame, seat: string, n: number): Promise<{ status: number; finished: boolean; body: unknown }> {
    const res = await fetch(`${this.baseUrl}/api/games/${game.id}/commands`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${game.tokens[seat]}` },
      body: JSON.stringify({ command: { type: 'guess', number: n } }),
    });
    const body = (await res.json()) as { game?: { status?: string } };
    return { status: res.status, finished: body.game?.status === 'FINISHED', body };
  }
}

/** Runs `commandsPerGame` commands in each of `games` games at once. */
export async function runLoad(client: HttpClient, games: number, commandsPerGame: number): Promise<LoadResult> {
  const created = await Promise.all(Array.from({ length: games }, () => client.createGame()));
  const latencies: number[] = [];
  let errors = 0;
  let replacedGames = 0;
  let firstError: unknown = null;

  const loop = async (initial: BenchGame) => {
    let game = initial;
    let turn = 0; // the round needs both seats: north, then east, then the next round
    for (let i = 0; i < commandsPerGame; i++) {
      const seat = SEATS[turn % SEATS.length]!;
      // Guessing 1 always scores exactly 1 a round: a game lasts `target` rounds.
      const number = 1;
      const start = process.hrtime.bigint();
      const outcome = await client.guess(game, seat, number);
      latencies.push(msSince(start));
      if (outcome.status !== 200) {
        errors++;
        firstError ??= { status: outcome.status, body: outcome.body };
        // Resynchronise on a fresh game rather than guess which seat is awaited.
        game = await client.createGame();
        turn = 0;
        continue;
      }
      turn++;
      if (outcome.finished) {
        replacedGames++;
        game = await client.createGame();
        turn = 0;
      }
    }
  };

  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  await Promise.all(created.map((g) => loop(g)));
  const seconds = msSince(start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  if (firstError) console.warn(`  (${errors} failed commands with ${games} games; the first: ${JSON.stringify(firstError)})`);
  const commands = games * commandsPerGame;
  return {
    games,
    commandsPerGame,
    commands,
    errors,
    replacedGames,
    seconds: round(seconds, 3),
    commandsPerSecond: round(commands / seconds, 1),
    p50Ms: round(quantile(latencies, 0.5)),
    p90Ms: round(quantile(latencies, 0.9)),
    p99Ms: round(quantile(latencies, 0.99)),
    maxMs: round(Math.max(...latencies)),
    cpuMsPerCommand: round((cpu.user + cpu.system) / 1000 / commands),
  };
}
