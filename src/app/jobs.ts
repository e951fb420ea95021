/**
 * What follows a commit, one way: planners. Each planner turns a commit about to be written
 * (the game as it was read, the outbox rows that say what changed for whom, the summary
 * after it) into jobs, and the store adds them in the commit's own statement, so a job
 * exists if and only if its commit was stored. The core registers its own (bots, clocks,
 * notifications: src/app/planners.ts); a new channel (mail replies, reminders, digests,
 * messages, absences) plugs in by registering one more with `Planners.register`. Most
 * commits need no job: a planner returns none then.
 */
import type { GameRecord, GameSummary, JobChange, NewMessage, OutboxEntry } from './ports.ts';

/** A commit about to be written. */
export interface PlannedCommit {
  /**
   * The game before the commit: its version is the one appended after, its `awaiting` the
   * seats awaited until now (none for a game being set up).
   */
  game: Pick<GameRecord, 'id' | 'type' | 'version' | 'awaiting' | 'playerIds' | 'seats' | 'bots' | 'clockPerMove'>;
  /** The version the game reaches. */
  version: number;
  outbox: OutboxEntry[];
  /** What the game's row says after the commit. */
  summary: GameSummary;
  /** The seat whose command this is (null: setup or the service). */
  seat: string | null;
}

/** Returns the jobs a commit needs (usually none). Pure: no I/O, no clock (runAfterSeconds is the store's). */
export type JobPlanner = (commit: PlannedCommit) => JobChange[];

/**
 * Jobs for a message between players about to be stored (a message is no commit: it never
 * changes the game's version), stored by the statement that stores it. Pure, as JobPlanner.
 */
export type MessagePlanner = (sent: { game: Pick<GameRecord, 'id' | 'playerIds' | 'seats'>; message: NewMessage }) => JobChange[];

/** The planners of one core, in the order they were registered. */
export class Planners {
  readonly #planners: { name: string; plan: JobPlanner }[] = [];

  /** Adds a planner (before the core serves: planners are fixed once commits flow). */
  register(name: string, plan: JobPlanner): this {
    if (this.#planners.some((p) => p.name === name)) throw new Error(`a planner named ${name} is registered already`);
    this.#planners.push({ name, plan });
    return this;
  }

  get names(): string[] {
    return this.#planners.map((p) => p.name);
  }

  /** Every planner's jobs for one commit. */
  plan(commit: PlannedCommit): JobChange[] {
    const jobs: JobChange[] = [];
    for (const p of this.#planners) jobs.push(...p.plan(commit));
    return jobs;
  }
}
