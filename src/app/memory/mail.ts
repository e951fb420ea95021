/** Play by mail's store in memory (src/app/ports-mail.ts): for the core's tests. */
import type { InboundRecord, JobSpec, MailStore, ReplyAddressRecord } from '../ports.ts';
import { copy, type MemoryData } from './data.ts';

export class MemoryMail implements MailStore {
  private readonly inbox = new Map<string, InboundRecord & { playerId: string | null; outcome: string | null; admittedAt: Date | null }>();
  private readonly addresses = new Map<string, ReplyAddressRecord>();

  constructor(private readonly d: MemoryData) {}

  async receive(input: { id: string; messageId: string | null; raw: Buffer; envelope: InboundRecord['envelope'] }, job: JobSpec) {
    const known = input.messageId === null ? undefined : [...this.inbox.values()].find((m) => m.messageId === input.messageId);
    if (known) return { id: known.id, duplicate: true };
    this.inbox.set(input.id, { ...copy(input), raw: Buffer.from(input.raw), receivedAt: this.d.now(), handledAt: null, playerId: null, outcome: null, admittedAt: null });
    this.d.addJob({ ...job, payload: { ...job.payload, id: input.id } });
    return { id: input.id, duplicate: false };
  }

  async inbound(id: string) {
    const m = this.inbox.get(id);
    return m ? { id: m.id, messageId: m.messageId, raw: Buffer.from(m.raw), envelope: copy(m.envelope), receivedAt: m.receivedAt, handledAt: m.handledAt } : null;
  }

  async handled(id: string, playerId: string | null, outcome: string, jobs: JobSpec[]) {
    const m = this.inbox.get(id);
    if (!m || m.handledAt) return false;
    Object.assign(m, { handledAt: this.d.now(), playerId: playerId ?? m.playerId, outcome });
    for (const job of jobs) this.d.addJob(job);
    return true;
  }

  async admit(id: string, playerId: string, perHour: number) {
    const m = this.inbox.get(id);
    if (!m) return false;
    if (m.playerId === playerId && m.admittedAt) return true;
    // Only admitted mails count, as on PostgreSQL.
    const now = this.d.now();
    const counted = [...this.inbox.values()].filter((x) => x.id !== id && x.playerId === playerId && x.admittedAt && x.admittedAt.getTime() >= now.getTime() - 3600_000).length;
    if (counted >= perHour) return false;
    Object.assign(m, { playerId, admittedAt: now });
    return true;
  }

  async saveReplyAddress(tokenHash: string, address: ReplyAddressRecord) {
    this.addresses.set(tokenHash, copy(address));
  }

  async replyAddress(tokenHash: string) {
    const a = this.addresses.get(tokenHash);
    return a ? copy(a) : null;
  }
}
