/**
 * `clock: { onTimeout: BOT }`: a seat whose deadline passes is handed to the service's random
 * bot for the rest of the game. The decision is the kernel's (the system's `timeOut { seat,
 * bot: true }` stores `SeatHandedToBot { seat }`, so the log replays and verifies); this
 * makes the game's record say what the log says afterwards: the seat becomes a `bot` seat
 * (its former holder stays among the game's players, for their listing and mail) and the
 * bot's first move is queued. It is idempotent and the deadline job runs it after every
 * attempt, so a process dying between the commit and this update leaves nothing undone:
 * the job runs again elsewhere and settles it.
 *
 * Until the record says so, Commands refuses the seat's former holder by the state itself
 * (src/app/commands.ts) and the planners see the seat among the bots; the bot's move waits
 * for the record (Bots reads it), which this settles before the deadline job ends.
 */
import type { GameStore, JobQueue, LobbyStore } from './ports.ts';
import type { States } from './states.ts';
import { priorityOf, TASKS } from './tasks.ts';

/** The bot kind a seat out of time is handed to. */
export const HANDOVER_BOT = 'random';

export class Handover {
  constructor(
    private readonly games: GameStore,
    private readonly lobby: LobbyStore,
    private readonly states: States,
    private readonly jobs: JobQueue,
  ) {}

  /** Hands to the bot every seat the log handed and the record does not (yet); returns them. */
  async settle(gameId: string): Promise<string[]> {
    const record = await this.games.game(gameId);
    if (!record || record.clockOnTimeout !== 'BOT') return [];
    const { state } = await this.states.of(record);
    const handed = (state.handedToBot ?? []).filter((s) => !record.bots.includes(s));
    if (handed.length === 0) return [];
    const updated = await this.lobby.handToBot(gameId, handed, HANDOVER_BOT);
    if (!updated) return [];
    this.states.remember(gameId, updated.version, state, updated);
    if (updated.status === 'ACTIVE' || updated.status === 'SETUP') {
      await this.jobs.add(TASKS.bot, { gameId, version: updated.version }, { key: `bot:${gameId}`, priority: priorityOf(TASKS.bot) });
    }
    return handed;
  }
}
