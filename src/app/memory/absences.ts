/** Absences in memory (see src/app/memory/index.ts): the AbsenceStore's contract, jobs moved with the absence. */
import { absentUntil, deadlineWith, warningWith } from '../absence.ts';
import { DEADLINE_SOON_ATTEMPTS, deadlineKey, deadlineSoonKey } from '../planners.ts';
import { priorityOf, TASKS } from '../tasks.ts';
import type { AbsenceRecord, AbsenceStore } from '../ports.ts';
import { copy, type MemoryData } from './data.ts';

export class MemoryAbsences implements AbsenceStore {
  constructor(private readonly d: MemoryData) {}

  async list(playerId: string): Promise<AbsenceRecord[]> {
    const yearStart = Date.UTC(this.d.now().getUTCFullYear(), 0, 1);
    return copy(this.d.absencesOf(playerId).filter((a) => a.until.getTime() >= yearStart).sort((a, b) => a.from.getTime() - b.from.getTime()));
  }

  async set(playerId: string, from: Date, until: Date, check: (now: Date, others: AbsenceRecord[]) => Date): Promise<AbsenceRecord> {
    const start = check(this.d.now(), copy(this.d.absencesOf(playerId)));
    const absence: AbsenceRecord = { id: `absence-${this.d.nextId()}`, playerId, from: start, until: new Date(until) };
    this.d.absences.push(absence);
    this.moveJobs(playerId);
    return copy(absence);
  }

  async cancel(playerId: string, id: string): Promise<'cancelled' | 'over' | 'unknown'> {
    const a = this.d.absences.find((x) => x.id === id && x.playerId === playerId);
    if (!a) return 'unknown';
    const now = this.d.now();
    if (a.until.getTime() <= now.getTime()) return 'over';
    if (a.from.getTime() <= now.getTime()) a.until = new Date(Math.max(now.getTime(), a.from.getTime() + 1));
    else this.d.absences.splice(this.d.absences.indexOf(a), 1);
    this.moveJobs(playerId);
    return 'cancelled';
  }

  async absentUntil(playerIds: string[]): Promise<Map<string, Date>> {
    const out = new Map<string, Date>();
    for (const id of new Set(playerIds)) {
      const until = absentUntil(this.d.absencesOf(id), this.d.now());
      if (until) out.set(id, until);
    }
    return out;
  }

  /** The pending deadline jobs of the player's awaited seats, moved to their derived times; a warning given already, added again when due again (as on PostgreSQL). */
  private moveJobs(playerId: string): void {
    const away = this.d.absencesOf(playerId);
    for (const game of this.d.games.values()) {
      if (!game.clockPerMove || !game.playerIds.includes(playerId)) continue;
      for (const seat of game.awaiting) {
        if (!game.seats.some((s) => s.seat === seat && s.kind === 'player' && s.playerId === playerId)) continue;
        const row = (this.d.outbox.get(game.id) ?? []).filter((o) => o.kind === 'SEAT_AWAITED' && o.seat === seat).at(-1);
        if (!row) continue;
        const deadline = this.d.jobs.find((j) => j.key === deadlineKey(game.id, seat));
        if (deadline) deadline.runAt = deadlineWith(row.createdAt, game.clockPerMove, away);
        const key = deadlineSoonKey(game.id, seat);
        const warning = warningWith(row.createdAt, game.clockPerMove, away);
        if (this.d.jobs.some((j) => j.key === key) || warning.getTime() >= this.d.now().getTime()) {
          this.d.addJob({ task: TASKS.deadlineSoon, payload: { gameId: game.id, seat, version: row.version }, key, runAt: warning, maxAttempts: DEADLINE_SOON_ATTEMPTS, priority: priorityOf(TASKS.deadlineSoon) });
        }
      }
    }
  }
}
