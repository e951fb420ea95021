/**
 * The turn's course: setup, then each player's turn (Movement Round, battles in spread
 * order, the end of the turn). After every command the game moves on by itself as far as
 * it can: it takes every choice that has exactly one legal option, draws server numbers,
 * and stops at the next decision a player must make.
 */
import { settleSteps, type Random } from '../kernel/index.ts';
import { contested, isAerial, sizeIn, unitsIn } from './battlefield.ts';
import { battleStep, beginBattle } from './battle.ts';
import { commandEvents, optionsFor } from './commands.ts';
import { damageCandidates, damageIsForced } from './damage.ts';
import { orderRetreats } from './random-events.ts';
import type { Run } from './run.ts';
import { ARMIES, opponent } from './types.ts';
import { victory } from './victory.ts';

/** Take a choice whose outcome is forced. Returns whether anything happened. */
function autoResolve(run: Run): boolean {
  const s = run.state;
  for (const p of s.pending) {
    if (p.kind === 'ALLOCATE_DAMAGE' && damageIsForced(s, p)) {
      const target = damageCandidates(s, p.seat)[0]!;
      run.emit(...commandEvents(s, p.seat, { type: 'assignHit', unit: target }));
      return true;
    }
    // After a move that did not stop the unit, the player ends the Movement Round himself even
    // when nothing else can move: ending it at once would tell the opponent that the unit had
    // used all its Movement (hidden until it has fought).
    if (p.kind === 'MOVE' && s.moving !== null) continue;
    // A Surprise Reserve is never declined for the Controlling army, even with nothing to bring:
    // passing for it would tell the other army that none of its hidden units can reach the battle.
    if (p.kind === 'CHOOSE_UNIT' && p.purpose === 'reserve') continue;
    const options = optionsFor(s, p);
    if (options.length === 1) {
      run.emit(...commandEvents(s, p.seat, options[0]!));
      return true;
    }
  }
  return false;
}

/** "If one or more of your units are forced into a spread ... and exceed the Capacity, you must destroy enough units." */
function checkCapacity(run: Run): boolean {
  const s = run.state;
  for (const sp of s.spreads) {
    if (!s.forcedInto.includes(sp.number)) continue;
    for (const army of ARMIES) {
      for (const aerial of [false, true]) {
        if (sizeIn(s, sp.number, army, aerial) > sp.capacity) {
          const any = unitsIn(s, sp.number, army).some((u) => isAerial(s, u) === aerial);
          if (!any) continue;
          run.emit({ type: 'CapacityExceeded', army, spread: sp.number, aerial, capacity: sp.capacity });
          return true;
        }
      }
    }
  }
  return false;
}

function step(run: Run, random: Random): boolean {
  const s = run.state;
  switch (s.phase) {
    case 'setup':
      run.emit({ type: 'SetupFinished', army: s.setupArmy! });
      return true;
    case 'turnStart':
      run.emit({ type: 'TurnBegan', turn: s.turn + 1, army: opponent(s.active) });
      return true;
    case 'movement':
      return false;
    case 'battles': {
      if (checkCapacity(run)) return true;
      if (s.battle) {
        battleStep(run, random);
        return true;
      }
      const next = contested(s).find((n) => n > s.lastBattle);
      if (next !== undefined) {
        beginBattle(run, next);
        return true;
      }
      // The turn is over: a Surprise Reserve retreats one spread.
      const reserves = Object.values(s.units).filter((u) => u.reserve && !u.destroyed && u.spread !== null);
      if (reserves.length) {
        // Units with nowhere to go are destroyed; the others wait for their owner's choice.
        orderRetreats(run, reserves, 'Surprise Reserve');
        return true;
      }
      if (s.turnLimit !== null && s.turn >= s.turnLimit) {
        run.emit({ type: 'GameEnded', winners: [], reason: `turn limit ${s.turnLimit} reached (draw)` });
        return true;
      }
      run.emit({ type: 'TurnEnded', turn: s.turn, army: s.active });
      return true;
    }
    case 'turnEnd':
    case 'over':
      return false;
  }
}

/** Move the game on until it waits for a player or is over (the kernel's loop guard throws if it never does). */
export function advance(run: Run, random: Random): void {
  settleSteps(run, () => {
    const s = run.state;
    if (s.result) return false;
    // "Both players assign the damage": every Hit of a result is assigned before the end is
    // judged, so one result that takes both armies' last units is a draw, whoever attacked.
    const v = s.pending.some((p) => p.kind === 'ALLOCATE_DAMAGE') ? null : victory(s);
    if (v) {
      run.emit({ type: 'GameEnded', winners: v.winners, reason: v.reason });
      return false;
    }
    if (s.pending.length) return autoResolve(run);
    return step(run, random);
  });
}

