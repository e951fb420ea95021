/**
 * Bots: the service plays a seat by choosing among that seat's legal commands. Pure: the
 * choice depends only on the commands and a seed of the bot's own, derived from the game's
 * secret seed (botSeed): nobody but the service can predict a bot's secret choices (a
 * Warchon number, a hidden placement) before they are revealed, and anyone can re-derive
 * and check them once the game is over and the seed is published.
 */
import { createHash, createHmac } from 'node:crypto';
import { MATCH_COMMANDS } from './match.ts';
import type { Command } from './types.ts';

/** The bot kinds every game type offers. */
export const BOT_KINDS = ['random'] as const;
export type BotKind = (typeof BOT_KINDS)[number];

export function isBotKind(kind: unknown): kind is BotKind {
  return (BOT_KINDS as readonly unknown[]).includes(kind);
}

/**
 * The bot's own seed for one decision: HMAC-SHA256 keyed with the game's secret seed over
 * the version it decides at and its seat. It tells nothing of the dice (other messages,
 * and HMAC does not give its key away) and cannot be computed without the seed.
 */
export function botSeed(gameSeed: string, version: number, seat: string): string {
  return createHmac('sha256', gameSeed).update(`bot:${version}:${seat}`).digest('hex');
}

/** A whole number from 0 to n - 1, uniform, derived from `seed` (rejection sampling on sha256). */
export function uniformIndex(seed: string, n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new Error(`cannot choose among ${n} things`);
  const range = 2 ** 48;
  const limit = range - (range % n);
  for (let attempt = 0; ; attempt++) {
    const x = createHash('sha256').update(`${seed}:${attempt}`).digest().readUIntBE(0, 6);
    if (x < limit) return x % n;
  }
}

/**
 * The command a bot submits, given the seat's legal commands (as the match lists them) and
 * its seed; null when it has nothing to do. A bot never resigns nor offers or accepts a
 * draw: a draw offer waiting for its answer is declined. "random" picks uniformly among
 * the game's own commands.
 */
export function botCommand(kind: BotKind, legal: Command[], seed: string): Command | null {
  if (legal.some((c) => c.type === 'declineDraw')) return { type: 'declineDraw' };
  const own = legal.filter((c) => !(MATCH_COMMANDS as readonly string[]).includes(c.type));
  if (own.length === 0) return null;
  switch (kind) {
    case 'random':
      return own[uniformIndex(seed, own.length)]!;
  }
}
