/**
 * The service's bots: a seat the service plays moves as an ordinary command of that seat.
 * The move is a job the bot planner adds with the commit that leaves the seat awaited
 * (src/app/planners.ts); its task calls `move`. Each move names the version at which the
 * bot became awaited (expectedVersion) and a key derived from it, and the choice depends
 * only on the game, that version and the seat: a job run twice submits the same command
 * under the same key, and the store keeps one.
 */
import { botCommand, isBotKind } from '../domain/kernel/index.ts';
import type { Actor } from './actors.ts';
import type { Commands } from './commands.ts';
import { AppError } from './errors.ts';
import type { GameStore } from './ports.ts';
import type { Reads } from './reads.ts';

const ATTEMPTS = 8;

export class Bots {
  /** Moves this process stored, and decisions another writer had already taken. */
  readonly stats = { moved: 0, raced: 0 };

  constructor(
    private readonly store: GameStore,
    private readonly reads: Reads,
    private readonly commands: Commands,
  ) {}

  /** One move for an awaited bot seat of the game, if any ('none': no bot is awaited now). */
  async move(gameId: string): Promise<'moved' | 'none'> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const outcome = await this.once(gameId);
      if (outcome !== 'raced') return outcome;
    }
    throw new Error(`game ${gameId} moved on ${ATTEMPTS} times while its bot decided; retrying`);
  }

  private async once(gameId: string): Promise<'moved' | 'raced' | 'none'> {
    const game = await this.store.game(gameId);
    if (!game || (game.status !== 'SETUP' && game.status !== 'ACTIVE')) return 'none';
    for (const seat of game.bots.filter((s) => game.awaiting.includes(s))) {
      const kind = game.seats.find((s) => s.seat === seat)?.bot;
      if (!isBotKind(kind)) continue;
      const actor: Actor = { kind: 'bot', gameId, seat };
      const read = await this.reads.read(gameId, actor);
      const version = read.version;
      // The bot's own generator: the game, the version it decides at, its seat; never the dice seed.
      const command = botCommand(kind, await read.legalCommands(), `${gameId}:${version}:${seat}`);
      if (!command) continue;
      try {
        await this.commands.execute(actor, gameId, command, { expectedVersion: version, idempotencyKey: `bot@${version}` });
        this.stats.moved++;
        return 'moved'; // its commit plans the next move
      } catch (error) {
        if (error instanceof AppError && (error.code === 'VERSION_CONFLICT' || error.code === 'NOT_YOUR_TURN' || error.code === 'GAME_OVER')) {
          // Someone else decided first (another run of this job, or the other seat): look again.
          this.stats.raced++;
          return 'raced';
        }
        throw error;
      }
    }
    return 'none';
  }
}
