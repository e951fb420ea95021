/**
 * §3 Sequence of Play: Cao movement, Cao combat, Yuan movement, Yuan combat, victory
 * check, round advance. After each command the game plays every step that needs no
 * player's decision (dice, single-option choices, phase changes) until it waits for one.
 */
import type { Random } from '../kernel/index.ts';
import type { WuchaoEvent } from './events.ts';
import { enemyOf } from './data.ts';
import { allocate, allocations, assaultSucceeded, beginCombat, endCombat, resolve, withdrawalPlans } from './combat.ts';
import { forcedStepBack, movableUnits, overstacked, stepBack, stepBackCandidates } from './movement.ts';
import { activeSide, specialUnit, unitsIn, type WuchaoState } from './state.ts';
import { record, type Tape } from './tape.ts';
import { victoryCheck } from './victory.ts';

/** An automatic choice is one of the legal options, so its rule cannot refuse it. */
function certain(e: WuchaoEvent | string): WuchaoEvent {
  if (typeof e === 'string') throw new Error(`raid-on-wuchao: automatic choice refused: ${e}`);
  return e;
}

export function proceed(t: Tape, random: Random): void {
  for (let guard = 0; guard < 10_000; guard++) {
    const s: WuchaoState = t.state;
    if (s.result || s.phase === 'setup' || s.phase === 'over') return;
    // §8 Combat results: if Cao Cao is destroyed, Yuan Shao wins instantly.
    const special = specialUnit(s);
    if (special && s.units[special]!.destroyed) {
      record(t, { type: 'CaoCaoDestroyed', unit: special, space: s.combat?.space ?? '' });
      continue;
    }
    if (s.phase === 'victoryCheck') {
      record(t, ...victoryCheck(s));
      continue;
    }
    const side = activeSide(s)!;
    if (s.phase === 'caoMovement' || s.phase === 'yuanMovement') {
      if (!s.stacking) {
        // A movement phase where nothing can move has one option: to end it.
        if (movableUnits(s, side).length === 0) {
          record(t, { type: 'MovementEnded', side });
          continue;
        }
        return;
      }
      const candidates = stepBackCandidates(s, side);
      // Done when no space is over the limit. (Every space held at most five when the
      // phase began, so an over-stacked space always holds units that moved there; the
      // second test is a safeguard.)
      if (overstacked(s, side).length === 0 || candidates.length === 0) {
        const combats = s.attacked.filter((sp) => unitsIn(s, sp, side).length > 0 && unitsIn(s, sp, enemyOf(side)).length > 0);
        record(t, { type: 'CombatPhaseBegan', side, combats });
        continue;
      }
      const forced = forcedStepBack(s, side);
      if (forced) {
        record(t, certain(stepBack(s, side, forced, true)));
        continue;
      }
      return;
    }
    // Combat phase.
    const c = s.combat;
    if (!c) {
      const next = s.combats[0];
      if (next === undefined) {
        record(t, { type: 'CombatPhaseEnded', side });
        continue;
      }
      record(t, ...beginCombat(s, next, side));
      continue;
    }
    if (c.rerolling) return;
    const unrolled = c.dice.find((d) => d.roll === null);
    if (unrolled) {
      record(t, { type: 'DieRolled', space: c.space, die: unrolled.die, roll: random.die(6) });
      continue;
    }
    if (c.damage === null) {
      record(t, resolve(s, c));
      continue;
    }
    if (!c.allocated) {
      const options = allocations(s, c);
      if (options.length === 1) {
        record(t, certain(allocate(s, options[0]!, true)));
        continue;
      }
      return;
    }
    // A failed assault whose withdrawals can go more than one way waits for the attacker.
    if (!assaultSucceeded(s) && withdrawalPlans(s).length > 1) return;
    record(t, endCombat(s));
  }
  throw new Error('raid-on-wuchao: the sequence of play did not settle');
}
