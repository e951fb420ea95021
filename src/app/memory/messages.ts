/** Messages between players in memory (see src/app/memory/index.ts). */
import type { JobChange, MessageRecord, MessageStore, NewMessage } from '../ports.ts';
import { copy, type MemoryData } from './data.ts';

export class MemoryMessages implements MessageStore {
  constructor(private readonly d: MemoryData) {}

  async send(message: NewMessage, sender: string, limit: { count: number; seconds: number }, jobs: JobChange[]) {
    const now = this.d.now();
    let w = this.d.messageLimits.get(sender);
    if (!w || w.windowStart.getTime() <= now.getTime() - limit.seconds * 1000) this.d.messageLimits.set(sender, (w = { windowStart: now, count: 0 }));
    w.count++;
    const resetsAt = new Date(w.windowStart.getTime() + limit.seconds * 1000);
    if (w.count > limit.count) return { stored: null, count: w.count, resetsAt };
    const game = this.d.games.get(message.gameId);
    if (!game) throw new Error(`no game ${message.gameId}`);
    const seq = this.d.messages.filter((m) => m.gameId === message.gameId).length + 1;
    const record: MessageRecord = { ...copy(message), seq, at: now };
    this.d.messages.push(record);
    this.d.applyJobs(jobs, game);
    return { stored: copy(record), count: w.count, resetsAt };
  }

  async message(gameId: string, id: string) {
    const m = this.d.messages.find((x) => x.gameId === gameId && x.id === id);
    return m ? copy(m) : null;
  }

  async lastSeq(gameId: string) {
    return this.d.messages.filter((m) => m.gameId === gameId).length;
  }

  async readable(gameId: string, seats: string[], afterSeq: number, first: number) {
    return this.d.messages
      .filter((m) => m.gameId === gameId && m.seq > afterSeq && (m.to === null || seats.includes(m.from) || m.to.some((s) => seats.includes(s))))
      .slice(0, first)
      .map(copy);
  }
}
