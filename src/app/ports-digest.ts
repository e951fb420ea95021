/**
 * The daily digest's and the calendar feed's port (docs/api.md, "Absence, digests,
 * calendars"). src/persistence/digest-store.ts implements it on PostgreSQL,
 * src/app/memory/digest.ts in memory.
 */
import type { JobSpec } from './ports.ts';

export interface DigestStore {
  /** The players who get the digest: emailDigest and mail on, a verified address. */
  readers(): Promise<string[]>;
  /**
   * Records the player's digest of `day` (YYYY-MM-DD) and adds `job` (its mail) in the same
   * commit; false, and no job, when that day's digest was recorded already (by any process).
   */
  record(playerId: string, day: string, games: number, job: JobSpec): Promise<boolean>;
  /** Keeps a calendar token's hash, made at the player's token generation `generation`. */
  saveCalendarToken(tokenHash: string, playerId: string, generation: number): Promise<void>;
  /** The player a calendar token stands for, only while their token generation is still the one it was made at. */
  calendarPlayer(tokenHash: string): Promise<string | null>;
}
