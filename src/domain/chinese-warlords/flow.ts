/**
 * The game master: after every command, the steps nobody chooses happen by themselves
 * (next player, next phase, a new turn with its initiative, income and upkeep, a choice
 * with exactly one legal option).
 */
import { Recorder, settle as settleLoop, type Random } from '../kernel/index.ts';
import { UNIT_TYPES } from './data.ts';
import type { WarlordsEvent } from './events.ts';
import { evolve } from './evolve.ts';
import { loseUnit, defenseOptions, passengersFirst } from './combat.ts';
import { activeSeats, unitById, unitsAt, type Phase, type WarlordsState } from './state.ts';
import { choosingVillage, nearbyVillages } from './setup.ts';
import { beginTurn } from './turn.ts';
import { warlordsKilled } from './victory.ts';

/** Units a player who could not pay upkeep may choose: anything but the Warlord, unless nothing else is left (ruling). */
export function upkeepCandidates(s: WarlordsState, seat: string): string[] {
  const own = s.units.filter((u) => u.owner === seat);
  const others = own.filter((u) => u.type !== 'warlord');
  return (others.length ? others : own).map((u) => u.id);
}

export function retreatEvents(s: WarlordsState, to: string): WarlordsEvent[] {
  const d = s.defense!;
  return [{ type: 'StackRetreated', seat: d.defender, from: d.hex, to, units: unitsAt(s, d.hex).map((u) => u.id) }];
}

export function loseUnitEvents(s: WarlordsState, unit: string): WarlordsEvent[] {
  return loseUnit(s, unitById(s, unit)!, s.phase === 'upkeep' ? 'upkeep' : 'combat');
}

function firstActive(s: WarlordsState, list: string[]): string | null {
  return list.find((p) => !s.players[p]!.out) ?? null;
}

const NEXT_PHASE: Partial<Record<Phase, Phase>> = { recruitment: 'movement', movement: 'combat' };

export function nextStep(s: WarlordsState, random: Random | null): WarlordsEvent[] {
  if (s.result) return [];
  const killed = warlordsKilled(s);
  if (killed.length && s.phase !== 'setup') return [{ type: 'PlayerDefeated', seat: killed[0]!, reason: `${killed[0]}'s Warlord was killed` }];
  switch (s.phase) {
    case 'setup': {
      // Ability 4: one nearby village is taken without asking, none grants nothing; more: the player chooses.
      const chooser = choosingVillage(s);
      if (chooser) {
        const villages = nearbyVillages(s, chooser);
        return villages.length <= 1 ? [{ type: 'NearbyVillageTaken', seat: chooser, hex: villages[0] ?? null }] : [];
      }
      return random ? beginTurn(s, random) : [];
    }
    case 'turnEnd':
      // The player asked to roll initiative has resigned: the next one in line is asked.
      if (s.seat && s.players[s.seat]!.out) return [{ type: 'PhaseBegan', phase: 'turnEnd', seat: firstActive(s, activeSeats(s)) }];
      return [];
    case 'upkeep': {
      const pending = s.order.filter((p) => !s.players[p]!.out && (s.upkeepLosses[p] ?? 0) > 0);
      for (const p of pending) {
        const candidates = upkeepCandidates(s, p);
        const count = s.upkeepLosses[p]!;
        const nonWarlord = candidates.filter((id) => unitById(s, id)!.type !== 'warlord');
        // No real choice: every unit but the Warlord goes (passengers before their carriers).
        if (nonWarlord.length && count >= nonWarlord.length) {
          const units = passengersFirst(nonWarlord.map((id) => unitById(s, id)!));
          return units.map((u): WarlordsEvent => ({ type: 'UnitLost', unit: u.id, unitType: u.type, seat: p, hex: u.hex, cause: 'upkeep' }));
        }
        if (candidates.length === 1) return loseUnitEvents(s, candidates[0]!);
      }
      if (pending.length) return [];
      return [{ type: 'PhaseBegan', phase: 'recruitment', seat: firstActive(s, s.order) }];
    }
  }
  if (s.defense) {
    const d = s.defense;
    const stack = unitsAt(s, d.hex);
    // No choice: the losses take the whole stack (passengers before their carriers).
    if (d.losses > 0 && d.losses >= stack.length) {
      return passengersFirst(stack).map((u): WarlordsEvent => ({ type: 'UnitLost', unit: u.id, unitType: u.type, seat: u.owner, hex: u.hex, cause: 'combat' }));
    }
    const { lose, retreat } = defenseOptions(s);
    if (lose.length + retreat.length === 1) return lose.length ? loseUnitEvents(s, lose[0]!) : retreatEvents(s, retreat[0]!);
    if (lose.length + retreat.length === 0) return []; // cannot happen: a defense ends when its stack is gone
    return [];
  }
  if (s.attack) return [];
  if (s.seat && !s.stepDone && !s.players[s.seat]!.out) return [];
  const at = s.seat ? s.order.indexOf(s.seat) : -1;
  const next = firstActive(s, s.order.slice(at + 1));
  if (next) return [{ type: 'PhaseBegan', phase: s.phase, seat: next }];
  const phase = NEXT_PHASE[s.phase];
  if (phase) return [{ type: 'PhaseBegan', phase, seat: firstActive(s, s.order) }];
  // End of the turn.
  if (s.turnLimit !== null && s.turn >= s.turnLimit) return [{ type: 'TurnLimitReached', turn: s.turn }];
  if (random) return beginTurn(s, random);
  return [{ type: 'PhaseBegan', phase: 'turnEnd', seat: firstActive(s, activeSeats(s)) }];
}

/** Applies events and every automatic step after them; returns all the events. */
export function settle(state: WarlordsState, events: WarlordsEvent[], random: Random | null): { state: WarlordsState; events: WarlordsEvent[] } {
  const recorder = new Recorder<WarlordsState, WarlordsEvent>(state, evolve);
  recorder.emit(...events);
  // The kernel's loop: it throws, rather than stop silently, if the steps never settle.
  settleLoop(recorder, (s) => nextStep(s, random));
  return { state: recorder.state, events: recorder.events };
}

export function isVehicle(type: keyof typeof UNIT_TYPES): boolean {
  return UNIT_TYPES[type].mobility !== 'foot';
}
