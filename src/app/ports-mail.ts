/**
 * Play by mail's port: inbound messages stored as received (with the job that handles
 * them, in one commit) and the reply addresses' token hashes. src/persistence/mail-store.ts
 * implements it on PostgreSQL, src/app/memory/mail.ts in memory.
 */
import type { JobSpec } from './ports.ts';

export interface InboundRecord {
  id: string;
  messageId: string | null;
  raw: Buffer;
  envelope: { from?: string; to?: string[] };
  receivedAt: Date;
  handledAt: Date | null;
}

export interface ReplyAddressRecord {
  playerId: string;
  gameId: string;
  seat: string;
}

export interface MailStore {
  /**
   * Stores the message and adds `job` (its payload gets `id`) in one commit; a Message-ID
   * already stored is not stored again (`duplicate`, no job).
   */
  receive(input: { id: string; messageId: string | null; raw: Buffer; envelope: InboundRecord['envelope'] }, job: JobSpec): Promise<{ id: string; duplicate: boolean }>;
  inbound(id: string): Promise<InboundRecord | null>;
  /**
   * Marks the message handled and adds `jobs` (its answer mail) in one statement, once:
   * when it already was handled, nothing is marked or added (false). So a job that runs
   * twice, or stops between the two, never sends an answer twice nor loses it.
   */
  handled(id: string, playerId: string | null, outcome: string, jobs: JobSpec[]): Promise<boolean>;
  /**
   * Counts the message against its player's limit, atomically across processes: true (and
   * the message is the player's and counted from now on) when fewer than `perHour` of their
   * mails were admitted in the last hour; a message admitted already is true again. A refused
   * one counts for nothing.
   */
  admit(id: string, playerId: string, perHour: number): Promise<boolean>;
  saveReplyAddress(tokenHash: string, address: ReplyAddressRecord): Promise<void>;
  replyAddress(tokenHash: string): Promise<ReplyAddressRecord | null>;
}
