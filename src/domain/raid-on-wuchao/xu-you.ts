/**
 * §10 Xu You's Assistance: two one-use tokens. After every combat die roll (either side's
 * 1D6, or Cao Cao's own 1D6) while the Cao player holds an unused token, the game waits
 * for Cao to reroll or accept; a reroll's result stands unless the next token is spent too.
 */
import type { Random } from '../kernel/index.ts';
import type { WuchaoEvent } from './events.ts';
import { unitName, type WuchaoState } from './state.ts';

export function dieLabel(s: WuchaoState, die: string): string {
  return die === 'combat' ? 'the combat die' : `${unitName(s, die)}'s attack die`;
}

export function reroll(s: WuchaoState, random: Random): WuchaoEvent | string {
  const c = s.combat;
  if (!c || !c.rerolling) return 'There is no die to reroll now';
  if (s.xuYou <= 0) return 'You have no Xu You token left';
  const previous = c.dice.find((d) => d.die === c.rerolling)!.roll!;
  return { type: 'XuYouRerolled', space: c.space, die: c.rerolling, previous, roll: random.die(6), tokensLeft: s.xuYou - 1 };
}

export function acceptRoll(s: WuchaoState): WuchaoEvent | string {
  const c = s.combat;
  if (!c || !c.rerolling) return 'There is no die waiting for your answer';
  return { type: 'RollAccepted', space: c.space, die: c.rerolling, roll: c.dice.find((d) => d.die === c.rerolling)!.roll! };
}

export function rerollPrompt(s: WuchaoState): string {
  const c = s.combat!;
  const d = c.dice.find((x) => x.die === c.rerolling)!;
  const who = c.attackerSide === 'cao' ? 'your attack' : "Yuan's attack";
  return `Xu You: ${dieLabel(s, d.die)} of ${who} on ${c.space} rolled ${d.roll}; reroll it (${s.xuYou} token${s.xuYou === 1 ? '' : 's'} left) or accept it`;
}
