/**
 * §3 Sequence of Play: Cao movement, Cao combat, Yuan movement, Yuan combat, victory
 * check, round advance. After each command the game plays every step that needs no
 * player's decision (dice, single-option choices, phase changes) until it waits for one.
 */
import { settleSteps, type Random } from '../kernel/index.ts';
import type { WuchaoEvent } from './events.ts';
import { enemyOf } from './data.ts';
import { allocate, allocations, assaultSucceeded, beginCombat, endCombat, resolve, withdrawalPlans } from './combat.ts';
import { anyMovable, forcedStepBack, overstacked, stepBack, stepBackCandidates } from './movement.ts';
import { activeSide, specialUnit, unitsIn, type WuchaoState } from './state.ts';
import type { Tape } from './tape.ts';
import { victoryCheck } from './victory.ts';
import { setupSteps } from './setup.ts';

/** An automatic choice is one of the legal options, so its rule cannot refuse it. */
function certain(e: WuchaoEvent | string): WuchaoEvent {
  if (typeof e === 'string') throw new Error(`raid-on-wuchao: automatic choice refused: ${e}`);
  return e;
}

export function proceed(t: Tape, random: Random): void {
  // The kernel's loop: each step returns whether there may be more; its guard throws if the steps never settle.
  settleSteps(t, () => {
    const s: WuchaoState = t.state;
    if (s.result || s.phase === 'over') return false;
    if (s.phase === 'setup') {
      const next = setupSteps(s);
      t.emit(...next);
      return next.length > 0;
    }
    // §8 Combat results: if Cao Cao is destroyed, Yuan Shao wins instantly; but an assault
    // that destroyed every defender first occupies the space, and "Control shifts
    // immediately" (§9), so the final board shows both.
    const special = specialUnit(s);
    if (special && s.units[special]!.destroyed) {
      const c = s.combat;
      if (c && c.allocated && assaultSucceeded(s)) t.emit(endCombat(s));
      t.emit({ type: 'CaoCaoDestroyed', unit: special, space: c?.space ?? '' });
      return true;
    }
    if (s.phase === 'victoryCheck') {
      t.emit(...victoryCheck(s));
      return true;
    }
    const side = activeSide(s)!;
    if (s.phase === 'caoMovement' || s.phase === 'yuanMovement') {
      if (!s.stacking) {
        // A movement phase where nothing can move has one option: to end it.
        if (!anyMovable(s, side)) {
          t.emit({ type: 'MovementEnded', side });
          return true;
        }
        return false;
      }
      const candidates = stepBackCandidates(s, side);
      // Done when no space is over the limit. (Every space held at most five when the
      // phase began, so an over-stacked space always holds units that moved there; the
      // second test is a safeguard.)
      if (overstacked(s, side).length === 0 || candidates.length === 0) {
        const combats = s.attacked.filter((sp) => unitsIn(s, sp, side).length > 0 && unitsIn(s, sp, enemyOf(side)).length > 0);
        t.emit({ type: 'CombatPhaseBegan', side, combats });
        return true;
      }
      const forced = forcedStepBack(s, side);
      if (forced) {
        t.emit(certain(stepBack(s, side, forced, true)));
        return true;
      }
      return false;
    }
    // Combat phase.
    const c = s.combat;
    if (!c) {
      const next = s.combats[0];
      if (next === undefined) {
        t.emit({ type: 'CombatPhaseEnded', side });
        return true;
      }
      t.emit(...beginCombat(s, next, side));
      return true;
    }
    if (c.rerolling) return false;
    const unrolled = c.dice.find((d) => d.roll === null);
    if (unrolled) {
      t.emit({ type: 'DieRolled', space: c.space, die: unrolled.die, roll: random.die(6) });
      return true;
    }
    if (c.damage === null) {
      t.emit(resolve(s, c));
      return true;
    }
    if (!c.allocated) {
      const options = allocations(s, c);
      if (options.length === 1) {
        t.emit(certain(allocate(s, options[0]!, true)));
        return true;
      }
      return false;
    }
    // A failed assault whose withdrawals can go more than one way waits for the attacker.
    if (!assaultSucceeded(s) && withdrawalPlans(s).length > 1) return false;
    t.emit(endCombat(s));
    return true;
  });
}
