/**
 * Folding events into the state. Events are facts: nothing is checked or decided here (who
 * places next is a rule, setup.ts placerOf, asked of the state). Rules that chain (an
 * attack forcing a retreat destroying a General putting a player out) are decided with a
 * Batch, which folds each event as it is emitted so the next rule sees it.
 */
import { activePlayers, type TkState } from './state.ts';
import type { TkEvent } from './events.ts';
import { Recorder } from '../kernel/index.ts';

export function evolve(state: TkState, event: TkEvent): TkState {
  switch (event.type) {
    case 'TerrainPlaced': {
      const terrain: TkState['terrain'] = {};
      for (const s of event.mountains) terrain[s] = 'mountain';
      for (const s of event.forests) terrain[s] = 'forest';
      for (const s of event.cities) terrain[s] = 'city';
      const cities = Object.fromEntries(event.cities.map((s) => [s, null]));
      return { ...state, terrain, cities, terrainPlaced: true };
    }
    case 'UnitPlaced': {
      const reserve = { ...state.reserves[event.seat]! };
      reserve[event.kind] -= 1;
      return {
        ...state,
        reserves: { ...state.reserves, [event.seat]: reserve },
        units: [...state.units, { id: event.unit, seat: event.seat, kind: event.kind, square: event.square }],
        lastPlacer: event.seat,
      };
    }
    case 'SetupCompleted': {
      const reserves = Object.fromEntries(Object.entries(state.reserves).map(([seat, r]) => [seat, Object.fromEntries(Object.keys(r).map((k) => [k, 0]))]));
      return { ...state, stage: 'ACTIVE', reserves: reserves as TkState['reserves'] };
    }
    case 'TurnStarted':
      return { ...state, active: event.seat, round: event.round, phase: 'move', moved: [], attacked: [], damage: {}, retreated: [], pendingRetreat: null };
    case 'UnitMoved':
      return { ...state, units: state.units.map((u) => (u.id === event.unit ? { ...u, square: event.to } : u)), moved: [...state.moved, event.unit] };
    case 'CityOccupied':
      return { ...state, cities: { ...state.cities, [event.square]: event.seat } };
    case 'MovementEnded':
      return { ...state, phase: 'attack' };
    case 'UnitAttacked':
      return { ...state, attacked: [...state.attacked, event.unit], damage: { ...state.damage, [event.target]: event.damageThisPhase } };
    case 'RetreatForced':
      // The counter restarts at 0 once the unit retreats (ruling).
      return {
        ...state,
        damage: { ...state.damage, [event.unit]: 0 },
        retreated: [...state.retreated, event.unit],
        pendingRetreat: { unit: event.unit, seat: event.seat, options: event.options },
      };
    case 'UnitRetreated':
      return { ...state, units: state.units.map((u) => (u.id === event.unit ? { ...u, square: event.to } : u)), pendingRetreat: null };
    case 'UnitDestroyed': {
      const { [event.unit]: _gone, ...damage } = state.damage;
      return {
        ...state,
        units: state.units.filter((u) => u.id !== event.unit),
        destroyed: [...state.destroyed, { id: event.unit, seat: event.seat, kind: event.kind }],
        damage,
        pendingRetreat: state.pendingRetreat?.unit === event.unit ? null : state.pendingRetreat,
      };
    }
    case 'PlayerOut': {
      const next = removePlayer(state, event.seat);
      return event.cause === 'left' ? { ...next, left: [...next.left, event.seat] } : next;
    }
    case 'TurnEnded':
      return { ...state, phase: null, damage: {}, retreated: [], pendingRetreat: null };
    case 'GameEnded':
      // Every ending: nobody's turn, nothing pending.
      return { ...state, stage: 'FINISHED', active: null, phase: null, pendingRetreat: null, damage: {}, result: { winners: event.winners, reason: event.reason } };
  }
}

/** A player out: their units leave the board, their cities are nobody's. */
export function removePlayer(state: TkState, seat: string): TkState {
  const gone = new Set(state.units.filter((u) => u.seat === seat).map((u) => u.id));
  const damage = Object.fromEntries(Object.entries(state.damage).filter(([id]) => !gone.has(id)));
  const cities = Object.fromEntries(Object.entries(state.cities).map(([s, c]) => [s, c === seat ? null : c]));
  const reserve = state.reserves[seat] ? Object.fromEntries(Object.keys(state.reserves[seat]!).map((k) => [k, 0])) : undefined;
  return {
    ...state,
    out: [...state.out, seat],
    units: state.units.filter((u) => u.seat !== seat),
    damage,
    cities,
    reserves: reserve ? { ...state.reserves, [seat]: reserve as TkState['reserves'][string] } : state.reserves,
    pendingRetreat: state.pendingRetreat?.seat === seat ? null : state.pendingRetreat,
  };
}

/** Decides a chain of rules with the kernel's recorder: every event is folded as soon as it is emitted. */
export class Batch extends Recorder<TkState, TkEvent> {
  constructor(state: TkState) {
    super(state, evolve);
  }

  get over(): boolean {
    return this.state.stage === 'FINISHED';
  }
}

export { activePlayers };
