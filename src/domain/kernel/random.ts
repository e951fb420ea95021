import { createHmac } from 'node:crypto';
import type { Random } from './types.ts';

/**
 * The game's dice. Draw number i is derived from HMAC-SHA256(seed, i), so anyone holding
 * the seed (published when the game ends) can re-derive every roll, while players cannot
 * predict the next one from the rolls they have seen. Hashing is computation, not I/O:
 * the domain stays pure and deterministic.
 */

export interface Roll {
  /** Position of this draw in the game's stream of draws. */
  index: number;
  sides: number;
  value: number;
}

const RANGE = 2 ** 48;

/** The value of draw `index` for a die of `sides`: uniform by rejection sampling. */
export function drawDie(seed: string, index: number, sides: number): number {
  if (!Number.isInteger(sides) || sides < 1) throw new Error(`a die needs a positive whole number of sides, got ${sides}`);
  const limit = RANGE - (RANGE % sides);
  for (let attempt = 0; ; attempt++) {
    const digest = createHmac('sha256', seed).update(`${index}:${attempt}`).digest();
    const x = digest.readUIntBE(0, 6);
    if (x < limit) return (x % sides) + 1;
  }
}

/** A Random that draws from the game's seed starting at `cursor` and records each draw. */
export class SeededRandom implements Random {
  readonly rolls: Roll[] = [];
  constructor(
    private readonly seed: string,
    private cursor: number,
  ) {}

  die(sides: number): number {
    const index = this.cursor++;
    const value = drawDie(this.seed, index, sides);
    this.rolls.push({ index, sides, value });
    return value;
  }
}

/** Refuses to roll: for places where randomness would be a bug (folding, viewing). */
export const noRandom: Random = {
  die() {
    throw new Error('no dice may be rolled here');
  },
};
