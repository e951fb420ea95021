/** The game's state and the small questions every rule asks of it. */
import type { Result } from '../kernel/index.ts';
import { neighbours } from './board.ts';
import { CITY_DEFENSE_BONUS, FACTIONS, GENERAL_DEFENSE_BONUS, UNIT_LIST, type CornerName, type TerrainKind, type UnitKind } from './data.ts';

export interface Unit {
  /** e.g. "wei-infantry-3" */
  id: string;
  seat: string;
  kind: UnitKind;
  square: string;
}

export interface PendingRetreat {
  unit: string;
  seat: string;
  options: string[];
}

export interface TkState {
  /** Seat order chosen at creation: placement order and turn order. */
  players: string[];
  corners: Record<string, CornerName>;
  turnLimit: number | null;
  stage: 'SETUP' | 'ACTIVE' | 'FINISHED';
  /** Squares with terrain; any other square is open ground. */
  terrain: Record<string, TerrainKind>;
  /** Every city and the player who last occupied it (null: nobody yet). */
  cities: Record<string, string | null>;
  /** Units not yet placed, per seat and kind. */
  reserves: Record<string, Record<UnitKind, number>>;
  /** Units on the board. */
  units: Unit[];
  destroyed: { id: string; seat: string; kind: UnitKind }[];
  /** The terrain is on the board: placement has begun. */
  terrainPlaced: boolean;
  /** Who placed the last unit during setup (the next placer follows in seat order: placerOf). */
  lastPlacer: string | null;
  round: number;
  active: string | null;
  phase: 'move' | 'attack' | null;
  /** Units that have moved this move phase / attacked this attack phase. */
  moved: string[];
  attacked: string[];
  /** Damage taken this attack phase, per unit (restarts at 0 after a retreat). */
  damage: Record<string, number>;
  /** Units forced to retreat this attack phase (Double Whammy). */
  retreated: string[];
  /** A retreat whose square the unit's owner must choose. */
  pendingRetreat: PendingRetreat | null;
  /** Players out of the game (lost both Generals, or resigned). */
  out: string[];
  /** Those of them who left (resigned or ran out of time) rather than lost their Generals. */
  left: string[];
  result: Result | null;
}

export function faction(seat: string): string {
  return FACTIONS[seat as keyof typeof FACTIONS] ?? seat;
}

/** "Wei Infantry 3" */
export function unitName(unit: { id: string; seat: string; kind: UnitKind }): string {
  const n = unit.id.slice(unit.id.lastIndexOf('-') + 1);
  return `${faction(unit.seat)} ${UNIT_LIST[unit.kind].name} ${n}`;
}

export function unitAt(state: TkState, square: string): Unit | undefined {
  return state.units.find((u) => u.square === square);
}

export function unitById(state: TkState, id: string): Unit | undefined {
  return state.units.find((u) => u.id === id);
}

export function activePlayers(state: TkState): string[] {
  return state.players.filter((p) => !state.out.includes(p));
}

export function isEnemy(a: Unit, b: Unit): boolean {
  return a.seat !== b.seat;
}

/**
 * A unit's defense now: printed, +1 next to a friendly General (at most +1 however many
 * Generals), +1 in a city (UNIT SPECIAL ABILITIES, TERRAIN).
 */
export function defenseOf(state: TkState, unit: Unit): number {
  let defense = UNIT_LIST[unit.kind].defense;
  const near = neighbours(unit.square);
  if (state.units.some((u) => u.seat === unit.seat && u.kind === 'general' && u.id !== unit.id && near.includes(u.square))) {
    defense += GENERAL_DEFENSE_BONUS;
  }
  if (state.terrain[unit.square] === 'city') defense += CITY_DEFENSE_BONUS;
  return defense;
}

export function generalsLeft(state: TkState, seat: string): number {
  return state.units.filter((u) => u.seat === seat && u.kind === 'general').length;
}
