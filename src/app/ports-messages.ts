/**
 * Messages between players' port: messages stored with their rate limit counted and their
 * jobs added in one commit, and read back as one reader may see them.
 * src/persistence/message-store.ts implements it on PostgreSQL, src/app/memory/messages.ts
 * in memory.
 */
import type { JobChange } from './ports.ts';

export interface MessageRecord {
  id: string;
  gameId: string;
  /** Increasing within the game: the order messages were stored in. */
  seq: number;
  from: string;
  /** null: public (everyone in the game); else the seats it is addressed to. */
  to: string[] | null;
  text: string;
  at: Date;
}

export type NewMessage = Pick<MessageRecord, 'id' | 'gameId' | 'from' | 'to' | 'text'>;

export interface MessageStore {
  /**
   * Counts one message of `sender` (a player, or a seat token's seat) in its current
   * window, by the store's clock and for every process, and stores the message with `jobs`
   * (a job's `when` asks about the message's game) if the count is at most `limit.count`;
   * otherwise stores nothing (`stored: null`). Every attempt counts.
   */
  send(message: NewMessage, sender: string, limit: { count: number; seconds: number }, jobs: JobChange[]): Promise<{ stored: MessageRecord | null; count: number; resetsAt: Date }>;
  /** A message of a game by its id (a per-game table: the game is part of its key). */
  message(gameId: string, id: string): Promise<MessageRecord | null>;
  /** The position of the game's last message (0: none yet), whoever may read it. */
  lastSeq(gameId: string): Promise<number>;
  /**
   * The game's messages after `afterSeq`, oldest first, at most `first`, that a reader
   * holding `seats` may read: the public ones, and the private ones sent by or to one of
   * `seats` (no seats: the public ones only). The filter is the store's, so nothing else
   * ever leaves it.
   */
  readable(gameId: string, seats: string[], afterSeq: number, first: number): Promise<MessageRecord[]>;
}
