/**
 * Every port of the core in memory: a second implementation beside PostgreSQL's, for the
 * core's tests (no database, no HTTP) and the bench's pure-core section. It keeps the
 * contracts that matter to the core: an append lands only at the version it names, a
 * reused idempotency key is told apart, jobs are added with their commit (and only when
 * someone listens, for a job that says so), deadlines come from when a seat became awaited.
 * Records go in and out as copies, as they would through a database. Its clock is `now`,
 * which a test may move on.
 */

import type { JobQueue, Ports, RevocationListener, WakeUps } from '../ports.ts';
import { MemoryAbsences } from './absences.ts';
import { MemoryData } from './data.ts';
import { MemoryClocks, MemoryGames, MemoryLobby } from './games.ts';
import { MemoryDigests } from './digest.ts';
import { MemoryMail } from './mail.ts';
import { MemoryMessages } from './messages.ts';
import { MemoryPlayers, MemoryWebhooks } from './people.ts';

export { MemoryData, type MemoryJob } from './data.ts';

class MemoryJobs implements JobQueue {
  constructor(private readonly d: MemoryData) {}

  async add(task: string, payload: Record<string, unknown> = {}, options: { key?: string; runAt?: Date; maxAttempts?: number; priority?: number; keyMode?: 'replace' | 'keep' } = {}) {
    const { keyMode, ...spec } = options;
    const existing = keyMode === 'keep' && spec.key ? this.d.jobs.find((j) => j.key === spec.key) : undefined;
    if (existing) return existing.id;
    return this.d.addJob({ task, payload, ...spec });
  }

  async remove(key: string) {
    this.d.removeJob(key);
  }
}

class MemoryWakeUps implements WakeUps {
  private readonly listeners = new Map<string, Set<() => void>>();

  constructor(private readonly d: MemoryData) {}

  onTokenRevoked(listener: RevocationListener): () => void {
    this.d.revocationListeners.add(listener);
    return () => void this.d.revocationListeners.delete(listener);
  }

  /** Revocations are told in microtasks queued before this one's. */
  heardRevocations(): Promise<void> {
    return new Promise((resolve) => queueMicrotask(resolve));
  }

  private readonly committed = new Set<() => void>();

  publish(gameId: string, _version: number): void {
    for (const wake of this.listeners.get(gameId) ?? []) queueMicrotask(wake);
    for (const wake of this.committed) queueMicrotask(wake);
  }

  onCommit(wake: () => void): () => void {
    this.committed.add(wake);
    return () => void this.committed.delete(wake);
  }

  /** One process here: every commit is its own, already held; nothing to tell. */
  onVersion(_heard: (gameId: string, version: number) => void): () => void {
    return () => {};
  }

  listen(gameId: string, wake: () => void): () => void {
    const set = this.listeners.get(gameId) ?? new Set();
    set.add(wake);
    this.listeners.set(gameId, set);
    return () => void set.delete(wake);
  }
}

/** A fresh set of memory ports, and the data behind them (for tests to look at, and its clock). */
export function memoryPorts(data = new MemoryData()): Ports & { data: MemoryData } {
  return {
    data,
    games: new MemoryGames(data),
    lobby: new MemoryLobby(data),
    players: new MemoryPlayers(data),
    webhooks: new MemoryWebhooks(data),
    clocks: new MemoryClocks(data),
    absences: new MemoryAbsences(data),
    mail: new MemoryMail(data),
    digests: new MemoryDigests(data),
    messages: new MemoryMessages(data),
    jobs: new MemoryJobs(data),
    wakeUps: new MemoryWakeUps(data),
    // The memory records carry no revision: a read always takes the record.
    revisions: { revision: async () => null },
  };
}

/** Runs the due jobs of the memory queue with `tasks`, lowest priority first, until none is due; returns how many ran. */
export async function runDueJobs(data: MemoryData, tasks: Record<string, (payload: Record<string, unknown>) => Promise<void>>, limit = 1_000): Promise<number> {
  let ran = 0;
  for (; ran < limit; ran++) {
    const now = data.now().getTime();
    const due = data.jobs.filter((j) => j.runAt.getTime() <= now && tasks[j.task]).sort((a, b) => a.priority - b.priority || a.runAt.getTime() - b.runAt.getTime())[0];
    if (!due) break;
    data.jobs.splice(data.jobs.indexOf(due), 1);
    due.attempts++;
    try {
      await tasks[due.task]!(due.payload);
    } catch (error) {
      if (due.attempts >= due.maxAttempts) throw error;
      data.jobs.push({ ...due, runAt: new Date(now + 1000 * Math.exp(due.attempts)) });
    }
  }
  return ran;
}
