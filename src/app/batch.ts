/** The command record of an append that stored several commands (submitCommands, a mail). */
import type { Command } from '../domain/kernel/index.ts';

/**
 * How several commands of one append are stored in its command record: the commands and how
 * many events each produced (the export lists them one by one again, so verify replays
 * each), and the orders as given (what an idempotency key is compared with).
 */
export interface StoredBatch {
  type: 'commands';
  commands: Command[];
  counts: number[];
  orders: ({ command: Command } | { notation: string })[];
}

export const isBatch = (c: Record<string, unknown>): c is Record<string, unknown> & StoredBatch => c.type === 'commands' && Array.isArray(c.commands) && Array.isArray(c.counts);
