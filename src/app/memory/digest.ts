/** The digests' and calendar tokens' store in memory (src/app/ports-digest.ts): for the core's tests. */
import type { DigestStore, JobSpec } from '../ports.ts';
import type { MemoryData } from './data.ts';

export class MemoryDigests implements DigestStore {
  private readonly sent = new Set<string>();
  private readonly calendars = new Map<string, { playerId: string; generation: number }>();

  constructor(private readonly d: MemoryData) {}

  async readers() {
    return [...this.d.players.values()].filter((p) => p.emailDigest && p.notifyByEmail && p.emailVerified && p.email).map((p) => p.id);
  }

  async record(playerId: string, day: string, _games: number, job: JobSpec) {
    const key = `${playerId}:${day}`;
    if (this.sent.has(key) || !this.d.players.has(playerId)) return false;
    this.sent.add(key);
    this.d.addJob(job);
    return true;
  }

  async saveCalendarToken(tokenHash: string, playerId: string, generation: number) {
    this.calendars.set(tokenHash, { playerId, generation });
  }

  async calendarPlayer(tokenHash: string) {
    const c = this.calendars.get(tokenHash);
    const p = c && this.d.players.get(c.playerId);
    return p && p.tokenGeneration === c.generation ? p.id : null;
  }
}
