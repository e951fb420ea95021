/** The state of a game of Chinese Warlords: plain JSON, folded from the events. */
import type { Result } from '../kernel/index.ts';
import { UNIT_TYPES, type AbilityEffect, type UnitType } from './data.ts';
import type { MapData } from './map.ts';

export interface Unit {
  id: string;
  type: UnitType;
  owner: string;
  hex: string;
  /** The vehicle or boat carrying this unit, if any. */
  carriedBy: string | null;
  /** Movement points spent this turn. */
  mpUsed: number;
  /** Rode a carrier this turn: its own movement is over once it gets off. */
  rode: boolean;
  /** Turn in which it last attacked (0: never). "A unit may attack once per turn." */
  attackedTurn: number;
  /** Turn in which its stack was last attacked (0: never). */
  targetedTurn: number;
  /** The turn before that in which its stack was attacked (0: never): "attacked last turn" must survive an attack this turn. */
  previousTargetedTurn: number;
  /** Turn in which its stack last retreated (0: never). "A stack may only retreat once per turn." */
  retreatedTurn: number;
}

export interface PlayerState {
  seat: string;
  treasury: number;
  abilityRoll: number;
  ability: AbilityEffect;
  stronghold: string;
  out: boolean;
  /** Types whose availability roll failed this turn: "none of that type left available to you this turn". */
  exhausted: UnitType[];
}

/** An attack being formed in the combat phase: stacks join it one by one, then it is resolved. */
export interface Attack {
  attacker: string;
  target: string;
  defender: string;
  stacks: string[];
  units: string[];
}

/** The defender's choices after a K2, K or R result. */
export interface Defense {
  attacker: string;
  defender: string;
  hex: string;
  /** Units still to be chosen as killed. */
  losses: number;
  /** After the losses: retreat 1 space or lose another unit (K2, K); retreat, or lose 1 unit if unable (R). */
  then: 'retreatOrLose' | 'retreat' | null;
  result: 'K2' | 'K' | 'R';
}

/** `over`: the game has ended (GameEnded), whatever ended it. */
export type Phase = 'setup' | 'upkeep' | 'recruitment' | 'movement' | 'combat' | 'turnEnd' | 'over';

export interface WarlordsState {
  seats: string[];
  map: MapData;
  turnLimit: number | null;
  turn: number;
  /** Initiative order of this turn. */
  order: string[];
  phase: Phase;
  /** Whose recruitment, movement or combat it is. */
  seat: string | null;
  /** The current seat has ended its part of the phase. */
  stepDone: boolean;
  players: Record<string, PlayerState>;
  units: Unit[];
  nextUnit: number;
  /** Who controls each village and stronghold (absent: nobody). */
  control: Record<string, string>;
  /** Upkeep unpaid: units each player still has to choose to lose. */
  upkeepLosses: Record<string, number>;
  /** Ability 4 at setup: players still to choose their nearby village, in seat order. */
  villageToChoose: string[];
  attack: Attack | null;
  defense: Defense | null;
  result: Result | null;
}

export function activeSeats(s: WarlordsState): string[] {
  return s.seats.filter((p) => !s.players[p]!.out);
}

export function unitById(s: WarlordsState, id: string): Unit | undefined {
  return s.units.find((u) => u.id === id);
}

export function unitsAt(s: WarlordsState, hex: string): Unit[] {
  return s.units.filter((u) => u.hex === hex);
}

export function ownerAt(s: WarlordsState, hex: string): string | null {
  return s.units.find((u) => u.hex === hex)?.owner ?? null;
}

export function passengersOf(s: WarlordsState, carrier: string): Unit[] {
  return s.units.filter((u) => u.carriedBy === carrier);
}

/**
 * "...or it was attacked last turn": its stack was attacked in the previous turn. An attack
 * in this turn does not count until the next one (ruling).
 */
export function attackedLastTurn(u: Unit, turn: number): boolean {
  return turn > 1 && (u.targetedTurn === turn - 1 || u.previousTargetedTurn === turn - 1);
}

export function unitName(u: Unit): string {
  return `${UNIT_TYPES[u.type].name} ${u.id}`;
}

/** The strongholds of players still in the game, by hex. */
export function liveStrongholds(s: WarlordsState): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of activeSeats(s)) out[s.players[p]!.stronghold] = p;
  return out;
}
