/**
 * The lag-tolerant reads (GameStore.lagTolerant) on a streaming replica
 * (DATABASE_REPLICA_URL). Everything a command decides on stays on the primary; here only:
 * - the log of a game up to a version the caller already read from the primary (`until`):
 *   its rows are immutable, so a replica that has reached `until` answers exactly as the
 *   primary would; one that has not (its rows stop short) is asked once more after a moment,
 *   then the primary answers;
 * - listings, which tolerate the replica's lag (a game created a moment ago may be missing).
 * A replica that fails (down, or cancelled by recovery) is passed over for the primary.
 */
import type { Cursor, GameRecord, LagTolerantReads, StoredEvent } from '../app/ports.ts';

export interface ReplicaCounts {
  /** Reads the replica answered. */
  replica: number;
  /** Reads the primary answered because the replica was behind or failed. */
  primary: number;
}

export class ReplicaReads implements LagTolerantReads {
  readonly counts: ReplicaCounts = { replica: 0, primary: 0 };

  constructor(
    private readonly primary: LagTolerantReads,
    private readonly replica: LagTolerantReads,
    private readonly options: { waitMs?: number; log?: (msg: string) => void } = {},
  ) {}

  async events(gameId: string, after = 0, until?: number, limit?: number): Promise<StoredEvent[]> {
    if (until === undefined) return this.fromPrimary(() => this.primary.events(gameId, after, until, limit));
    // Versions are 1, 2, 3, ... per game: the rows after `after` up to `until` are exactly this many.
    const want = Math.max(0, Math.min(limit ?? Number.POSITIVE_INFINITY, until - after));
    for (let attempt = 0; attempt < 2; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, this.options.waitMs ?? 20));
      try {
        const rows = await this.replica.events(gameId, after, until, limit);
        if (rows.length >= want) {
          this.counts.replica++;
          return rows;
        }
      } catch (error) {
        this.options.log?.(`replica: ${(error as Error).message}`);
        break;
      }
    }
    return this.fromPrimary(() => this.primary.events(gameId, after, until, limit));
  }

  async listGames(filter: { type?: string; status?: string; ids?: string[] }, first: number, after?: Cursor): Promise<GameRecord[]> {
    try {
      const rows = await this.replica.listGames(filter, first, after);
      this.counts.replica++;
      return rows;
    } catch (error) {
      this.options.log?.(`replica: ${(error as Error).message}`);
      return this.fromPrimary(() => this.primary.listGames(filter, first, after));
    }
  }

  private fromPrimary<T>(read: () => Promise<T>): Promise<T> {
    this.counts.primary++;
    return read();
  }
}
