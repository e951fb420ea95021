/**
 * §2 Victory Conditions, checked after Yuan's combat each round (§3): Cao wins by
 * controlling both granaries, Yuan by controlling A1 (Cutoff); if both, Yuan wins
 * (Tie-Breaker). After round 8's check with no winner, Yuan wins (Survival). Cao Cao's
 * destruction (Elimination) ends the game at once, in combat.ts's sequence.
 */
import type { WuchaoEvent } from './events.ts';
import type { WuchaoState } from './state.ts';

export function victoryCheck(s: WuchaoState): WuchaoEvent[] {
  const caoHoldsGranaries = s.map.granaries.every((g) => s.control[g] === 'cao');
  const yuanHoldsCamp = s.control[s.map.camp] === 'yuan';
  const base = { type: 'VictoryChecked' as const, round: s.round, caoHoldsGranaries, yuanHoldsCamp };
  if (yuanHoldsCamp) {
    const reason = caoHoldsGranaries ? `both sides met a victory condition; Yuan wins ties (Cutoff: Yuan holds ${s.map.camp})` : `Cutoff: Yuan holds ${s.map.camp}`;
    return [{ ...base, winner: 'yuan', reason }];
  }
  if (caoHoldsGranaries) return [{ ...base, winner: 'cao', reason: `Cao holds both granaries (${s.map.granaries.join(', ')})` }];
  if (s.round >= s.rounds) return [{ ...base, winner: 'yuan', reason: `Survival: Cao did not capture both granaries by the end of round ${s.rounds}` }];
  return [{ ...base, winner: null, reason: null }, { type: 'RoundAdvanced', round: s.round + 1 }];
}
