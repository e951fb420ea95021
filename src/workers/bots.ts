/**
 * The bots' worker: plays every seat the service plays, from whichever process, as an
 * ordinary command of that seat through the application core. Each move names the version
 * at which the bot became awaited (expectedVersion) and a key derived from it, and the
 * choice depends only on the game's secret seed, that version and the seat: two processes acting for the
 * same decision submit the same command under the same key, and the store keeps one.
 *
 * It hears of a game in one place (`onCommit`: a commit that leaves a bot seat awaited) and
 * sweeps the database every second for games awaiting a bot, so a process that dies between
 * a commit and the bot's move loses nothing: another process's sweep moves.
 */
import type { Actor } from '../app/actors.ts';
import type { Application, Commit } from '../app/application.ts';
import { AppError } from '../app/errors.ts';
import { botCommand, isBotKind } from '../domain/kernel/index.ts';

export interface BotWorkerOptions {
  /** How often to look for games awaiting a bot (ms). */
  sweepMs?: number;
  /** Games this process moves for at once. */
  concurrency?: number;
  log?: (msg: string) => void;
}

export class BotWorker {
  /** Games being acted for; true: look again when done. */
  private readonly running = new Map<string, boolean>();
  private readonly queue: string[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private sweeping = false;
  private stopped = true;
  private readonly listener = (commit: Commit) => this.onCommit(commit);
  /** Moves this process stored, and decisions another writer had already taken. */
  readonly stats = { moved: 0, raced: 0 };

  constructor(
    private readonly app: Application,
    private readonly options: BotWorkerOptions = {},
  ) {}

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.app.commits.add(this.listener);
    this.timer = setInterval(() => void this.sweep(), this.options.sweepMs ?? 1000);
    this.timer.unref();
    void this.sweep();
  }

  async stop() {
    this.stopped = true;
    this.app.commits.delete(this.listener);
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.queue.length = 0;
    await Promise.allSettled([...this.inFlight]);
  }

  /** The one trigger: a commit that leaves a seat the service plays awaited. */
  private onCommit({ game, outbox }: Commit) {
    if (game.bots.length === 0) return;
    const awaited = outbox.some((o) => o.kind === 'SEAT_AWAITED' && o.seat !== null && game.bots.includes(o.seat));
    // A draw offer awaits an answer without a SEAT_AWAITED row (no clock runs on it).
    if (awaited || game.awaiting.some((s) => game.bots.includes(s))) this.trigger(game.id);
  }

  trigger(gameId: string) {
    if (this.stopped) return;
    if (this.running.has(gameId)) {
      this.running.set(gameId, true);
      return;
    }
    this.running.set(gameId, false);
    this.queue.push(gameId);
    this.drain();
  }

  private drain() {
    while (this.queue.length && this.inFlight.size < (this.options.concurrency ?? 4)) {
      const gameId = this.queue.shift()!;
      const run = (async () => {
        try {
          do {
            this.running.set(gameId, false);
            await this.act(gameId);
          } while (this.running.get(gameId) && !this.stopped);
        } catch (error) {
          this.options.log?.(`bot move in game ${gameId} failed: ${(error as Error).message}`);
        } finally {
          this.running.delete(gameId);
        }
      })();
      this.inFlight.add(run);
      void run.finally(() => {
        this.inFlight.delete(run);
        this.drain();
      });
    }
  }

  private async sweep() {
    if (this.sweeping || this.stopped || !this.app.lobby) return;
    this.sweeping = true;
    try {
      for (const id of await this.app.lobby.gamesAwaitingBots(100)) this.trigger(id);
    } catch (error) {
      if (!this.stopped) this.options.log?.(`bot sweep failed: ${(error as Error).message}`);
    } finally {
      this.sweeping = false;
    }
  }

  /** One move for one awaited bot seat of the game, if any. */
  async act(gameId: string): Promise<void> {
    const game = await this.app.store.game(gameId);
    if (!game || (game.status !== 'SETUP' && game.status !== 'ACTIVE')) return;
    for (const seat of game.bots.filter((s) => game.awaiting.includes(s))) {
      const kind = game.seats.find((s) => s.seat === seat)?.bot;
      if (!isBotKind(kind)) continue;
      const actor: Actor = { kind: 'bot', gameId, seat };
      const read = await this.app.read(gameId, actor);
      const version = read.version;
      // The bot's own generator: derived from the game's secret seed, the version it decides
      // at and its seat (botSeed), so no player can predict it and verify can re-derive it.
      const seed = read.botSeed;
      if (!seed) continue;
      const command = botCommand(kind, await read.legalCommands(), seed);
      if (!command) continue;
      try {
        await this.app.execute(actor, gameId, command, { expectedVersion: version, idempotencyKey: `bot@${version}` });
        this.stats.moved++;
      } catch (error) {
        if (error instanceof AppError && (error.code === 'VERSION_CONFLICT' || error.code === 'NOT_YOUR_TURN' || error.code === 'GAME_OVER')) {
          // Someone else decided first (another process for this bot, or the other seat): look again.
          this.stats.raced++;
          this.running.set(gameId, true);
          return;
        }
        throw error;
      }
      return; // its commit triggers the next move
    }
  }
}
