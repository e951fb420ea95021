/**
 * What each seat may see. Hidden setup: the opponent (and a spectator) sees a marker per
 * unit per spread, not which unit it is, until the unit has fought. A secret number is
 * seen by its owner only, until both numbers of that generation are in.
 */
import type { Json, Viewer } from '../kernel/index.ts';
import { hitsLeft, lineOf, neighbours, traitsOf, typeOf } from './battlefield.ts';
import type { Unit, WarchonEvent, WarchonState } from './types.ts';
import { ARMIES } from './types.ts';
import { phaseName } from './status.ts';

function knows(state: WarchonState, viewer: Viewer, unit: Unit): boolean {
  return state.result !== null || unit.army === viewer || unit.revealed;
}

function unitView(state: WarchonState, viewer: Viewer, u: Unit): Json {
  const known = knows(state, viewer, u);
  const type = typeOf(state, u);
  const line = lineOf(state, u);
  return {
    id: u.id,
    army: u.army,
    spread: u.spread,
    destroyed: u.destroyed,
    revealed: u.revealed,
    shifted: u.shifted,
    known,
    key: known ? u.key : null,
    type: known ? u.type : null,
    name: known ? type.name : null,
    size: known ? line.size : null,
    movement: known ? line.movement : null,
    as: known ? line.as : null,
    ds: known ? line.ds : null,
    hits: known ? hitsLeft(state, u) : null,
    maxHits: known ? type.lines.length : null,
    traits: known ? [...traitsOf(state, u)] : null,
    movesLeft: known ? u.movesLeft : null,
    reserve: u.reserve,
    temporary: u.temporary,
    fightsFor: u.fightsFor,
  };
}

export function view(state: WarchonState, viewer: Viewer): Json {
  const battle = state.battle;
  const call = battle?.call ?? null;
  return {
    turn: state.turn,
    phase: phaseName(state),
    activeArmy: state.turn > 0 && !state.result ? state.active : null,
    numbers: state.numbers,
    turnLimit: state.turnLimit,
    viewer,
    spreads: state.spreads.map((sp) => ({
      number: sp.number,
      name: sp.name,
      terrain: [...sp.terrain],
      capacity: sp.capacity,
      specialRules: sp.special.text,
      paths: [...sp.paths],
      neighbours: [...neighbours(state, sp.number)],
      engaged: state.engaged.some((e) => e.spread === sp.number && e.turn >= state.turn - 1),
      randomEventThisTurn: state.eventSpreads.includes(sp.number),
      rng: sp.rng.map((r) => [...r]),
      crt: sp.crt.map((r) => [...r]),
      events: sp.events ? sp.events.map((e) => ({ name: e.name, text: e.text })) : null,
    })),
    units: Object.values(state.units).map((u) => unitView(state, viewer, u)),
    unplaced: ARMIES.map((army) => ({
      army,
      count: state.unplaced[army].length,
      units: army === viewer || state.result ? [...state.unplaced[army]] : null,
    })),
    battle: battle
      ? {
          spread: battle.spread,
          attacker: battle.attacker,
          defender: battle.defender,
          step: battle.step,
          numberCall: call
            ? {
                purpose: call.purpose,
                committed: ARMIES.filter((a) => call.commits[a] !== null),
                // Your own secret number only: the other stays hidden until both are in.
                yourNumber: viewer === 'azuthkan' || viewer === 'celestine' ? call.commits[viewer] : null,
              }
            : null,
          lastNumber: battle.number ? { ...battle.number } : null,
          originalNumber: battle.originalNumber,
          randomEvent: battle.eventIndex !== null ? state.spreads.find((s) => s.number === battle.spread)!.events![battle.eventIndex]!.name : null,
          modifiers: battle.modifiers.map((m) => ({ ...m, units: [...m.units] })),
          halved: battle.halved,
          berserkers: [...battle.berserkers],
          withheld: [...battle.withheld],
          bridge: [...battle.bridge],
          engaged: battle.engaged,
        }
      : null,
    result: state.result ? { winners: [...state.result.winners], reason: state.result.reason } : null,
  };
}

/** The event as the viewer may see it now (the kernel shows everything once the game is over). */
export function redact(event: WarchonEvent, viewer: Viewer, current: WarchonState): WarchonEvent {
  switch (event.type) {
    case 'UnitPlaced':
      if (event.army !== viewer && !current.units[event.marker]?.revealed) return { ...event, unit: null, unitType: null };
      return event;
    case 'NumberCommitted':
      if (event.army !== viewer && event.generation >= current.generations) return { ...event, number: null };
      return event;
    case 'ChoicesOffered':
      // A Surprise Reserve's candidates say which hidden units can reach the battle: only the chooser sees the options.
      if (event.choices.some((c) => c.seat !== viewer)) {
        return { ...event, choices: event.choices.map((c) => (c.seat === viewer ? c : { ...c, options: [] })) };
      }
      return event;
    case 'UnitMoved':
      // Where a hidden unit went, never how: the Movement spent would tell a flight from a walk.
      if (event.army !== viewer && !current.units[event.unit]?.revealed) return { ...event, moves: null };
      return event;
    case 'CapacityExceeded':
      // Which class overflowed says something about units the opponent may not know.
      if (event.army !== viewer) return { ...event, aerial: null };
      return event;
    default:
      return event;
  }
}
