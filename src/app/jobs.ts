/**
 * The application core's view of the job queue (graphile-worker, src/workers/queue.ts).
 * Planners turn a commit's outbox rows into jobs added in the commit's own statement, so a
 * job exists if and only if its command was stored; `Application.queue` adds jobs after a
 * commit (or with no commit at all).
 */
import type { GameRecord, OutboxEntry } from '../persistence/event-store.ts';
import type { JobChange } from '../persistence/jobs.ts';

export type { JobChange, JobRemoval, JobSpec } from '../persistence/jobs.ts';

/** A commit about to be written: the game as it was read, what the outbox will say. */
export interface PlannedCommit {
  /** The game's row before the commit (its version is the one appended after). */
  game: GameRecord;
  /** The version the game reaches. */
  version: number;
  outbox: OutboxEntry[];
  /** The seat whose command this is (null: setup or the service). */
  seat: string | null;
}

/** Returns the jobs a commit needs (most commits need none: add nothing then). */
export type JobPlanner = (commit: PlannedCommit) => JobChange[];

export interface JobQueue {
  add(task: string, payload?: Record<string, unknown>, options?: { key?: string; runAt?: Date; maxAttempts?: number }): Promise<string>;
  remove(key: string): Promise<void>;
}

/** Every planner's jobs for one commit. */
export function planJobs(planners: Iterable<JobPlanner>, commit: PlannedCommit): JobChange[] {
  const jobs: JobChange[] = [];
  for (const plan of planners) jobs.push(...plan(commit));
  return jobs;
}
