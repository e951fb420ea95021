/**
 * Deadlines: what happens when a seat's time runs out. The clock planner
 * (src/app/planners.ts) adds a deadline's jobs with the commit that made the seat awaited:
 * `deadline_passed` at the deadline and `deadline_soon` when a quarter of the time is left,
 * one of each per game and seat, replaced when the seat faces a new decision and removed
 * when the game stops awaiting it, both timed by the database's clock. Whichever process's
 * runner takes the job runs it (src/workers/tasks.ts calls these).
 *
 * The time-out is the match command `timeOut { seat }`, submitted through the same
 * Commands.execute as any command, as the system actor, at the version at which the
 * deadline was set: a command of that seat that lands first moves the game on, and the
 * time-out is then refused and dropped quietly. Exactly one of the two is stored. Every
 * other awaited seat whose deadline has passed too is timed out in the same command
 * (timeOutCommand), so that which job runs first never decides who wins.
 */
import { timeOutCommand } from '../domain/kernel/index.ts';
import { SYSTEM_ACTOR } from './actors.ts';
import type { Commands } from './commands.ts';
import { AppError } from './errors.ts';
import type { Handover } from './handover.ts';
import { DEADLINE_SOON_ATTEMPTS, deadlineKey, deadlineSoonKey } from './planners.ts';
import type { ClockStore, JobQueue } from './ports.ts';
import type { Reads } from './reads.ts';
import { priorityOf, TASKS } from './tasks.ts';

/** What the database puts in a deadline's jobs. */
export interface DeadlineJob {
  gameId: string;
  seat: string;
  /** The game's version when the seat became awaited. */
  version: number;
  /** ISO time (informative: the database decides whether it has passed). */
  deadline?: string;
}

export type DeadlineOutcome =
  /** The seat was timed out (TimedOut stored). */
  | 'timed-out'
  /** The seat acted first, is out, or the game ended: nothing to do. */
  | 'stale'
  /** The deadline is later than the job (an absence): the job was moved to it. */
  | 'moved';

/** Told when a seat has a quarter of its time left (the notifications send DEADLINE_SOON). */
export type DeadlineSoonHook = (notice: { gameId: string; seat: string; version: number; deadline: Date }) => Promise<void>;

const ATTEMPTS = 8;

/** The deadline has not passed by the database's clock (kept for callers; the job now moves itself instead). */
export class DeadlineNotYet extends Error {}

export function deadlineJobOf(payload: Record<string, unknown>): DeadlineJob {
  const { gameId, seat, version } = payload as Partial<DeadlineJob>;
  if (typeof gameId !== 'string' || typeof seat !== 'string' || !Number.isInteger(version)) throw new Error(`not a deadline job: ${JSON.stringify(payload)}`);
  return { gameId, seat, version: version as number, deadline: typeof payload.deadline === 'string' ? payload.deadline : undefined };
}

export class Deadlines {
  /** Time-outs this process stored, and deadlines it found already answered. */
  readonly stats = { timedOut: 0, stale: 0, warned: 0, moved: 0 };

  constructor(
    private readonly clocks: ClockStore,
    private readonly reads: Reads,
    private readonly commands: Commands,
    /** Sends the "deadline near" notifications (src/app/notifications.ts). */
    private readonly deadlineSoonHook: DeadlineSoonHook,
    /** Hands seats out of time to the bot in the game's record (`onTimeout: BOT`). */
    private readonly handover: Handover,
    /** Where a job that ran before its deadline (the player was absent) moves itself. */
    private readonly jobs: JobQueue,
  ) {}

  /**
   * Whether the seat's decision of `job.version` is still the one the game awaits: the game
   * (at the version returned) awaits a decision of the seat, and no SEAT_AWAITED row came
   * after the job's (a command of the seat that leaves it awaited writes one).
   */
  private async standing(job: DeadlineJob) {
    const d = await this.clocks.deadline(job.gameId, job.seat);
    if (!d || d.version !== job.version) return null;
    const read = await this.reads.read(job.gameId, SYSTEM_ACTOR);
    // The game moved on between the two reads: the caller looks again.
    if (read.version !== d.gameVersion) return { moved: true as const };
    if (read.status === 'FINISHED') return null;
    const awaited = new Set((await read.progress()).awaiting.filter((p) => p.kind !== 'ANSWER_DRAW').map((p) => p.seat));
    const others = [...awaited].filter((s) => s !== job.seat);
    const players = read.players.map((p) => p.seat);
    return awaited.has(job.seat) ? { moved: false as const, deadline: d.deadline, passed: d.passed, soon: d.soon, soonPassed: d.soonPassed, version: d.gameVersion, others, players, bot: read.clock?.onTimeout === 'BOT' } : null;
  }

  /** The other awaited seats whose deadlines have passed as well, by the database's clock. */
  private async passedWith(job: DeadlineJob, others: string[]): Promise<string[]> {
    const passed: string[] = [];
    for (const seat of others) if ((await this.clocks.deadline(job.gameId, seat))?.passed) passed.push(seat);
    return passed;
  }

  /**
   * The job `deadline_passed`: times the seat out, unless it acted first. With `onTimeout:
   * BOT` the seat is handed to the bot instead, and the record follows the log before the job
   * ends (again on a retry: a process that died in between left it to the next run).
   */
  async deadlinePassed(job: DeadlineJob): Promise<DeadlineOutcome> {
    const outcome = await this.timeOut(job);
    await this.handover.settle(job.gameId);
    return outcome;
  }

  private async timeOut(job: DeadlineJob): Promise<DeadlineOutcome> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const now = await this.standing(job);
      if (now === null) return this.stale();
      if (now.moved) continue;
      // Early: the seat's player was absent since it became awaited (absences move the
      // deadline, src/app/absence.ts). The job moves itself to the derived deadline.
      if (!now.passed) {
        await this.jobs.add(TASKS.deadlinePassed, { gameId: job.gameId, seat: job.seat, version: job.version }, { key: deadlineKey(job.gameId, job.seat), runAt: now.deadline, priority: priorityOf(TASKS.deadlinePassed) });
        this.stats.moved++;
        return 'moved';
      }
      // Usually the version at which the deadline was set. Later only when other seats have
      // acted since (several seats awaited at once) and this seat has not: its time still runs.
      try {
        // Every other awaited seat whose deadline has passed too goes out with it (API.md, Clocks).
        const command = timeOutCommand(now.players, [job.seat, ...(await this.passedWith(job, now.others))]);
        await this.commands.execute(SYSTEM_ACTOR, job.gameId, { ...command, ...(now.bot ? { bot: true } : {}) }, { expectedVersion: now.version });
        this.stats.timedOut++;
        return 'timed-out';
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        // A command landed first: look again (it was the seat's, and the deadline is gone, or another seat's).
        if (error.code === 'VERSION_CONFLICT') continue;
        if (error.code === 'GAME_OVER' || error.code === 'ILLEGAL_COMMAND' || error.code === 'NOT_YOUR_TURN') return this.stale();
        throw error;
      }
    }
    throw new Error(`game ${job.gameId} moved on ${ATTEMPTS} times while ${job.seat}'s deadline was acted on; retrying`);
  }

  /**
   * The job `deadline_soon`: a quarter of the seat's time is left, or the player is back from
   * an absence that moved the deadline after the warning was given (the AbsenceStore adds the
   * job again then). The hook gets the deadline as it is now: the notifications warn once per
   * deadline.
   */
  async deadlineSoon(job: DeadlineJob): Promise<'notified' | 'stale' | 'moved'> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const now = await this.standing(job);
      if (now === null) return 'stale';
      if (now.moved) continue;
      if (now.passed) return 'stale'; // too late to warn: the time-out follows
      if (now.soon && now.soonPassed === false) {
        // Early (an absence): the warning moves to when it is due (warningWith, src/app/absence.ts).
        await this.jobs.add(TASKS.deadlineSoon, { gameId: job.gameId, seat: job.seat, version: job.version }, { key: deadlineSoonKey(job.gameId, job.seat), runAt: now.soon, maxAttempts: DEADLINE_SOON_ATTEMPTS, priority: priorityOf(TASKS.deadlineSoon) });
        this.stats.moved++;
        return 'moved';
      }
      await this.deadlineSoonHook({ gameId: job.gameId, seat: job.seat, version: job.version, deadline: now.deadline });
      this.stats.warned++;
      return 'notified';
    }
    return 'stale';
  }

  private stale(): 'stale' {
    this.stats.stale++;
    return 'stale';
  }
}
