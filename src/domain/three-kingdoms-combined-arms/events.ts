/** The facts the rules produce, named in the rulebook's words. Plain JSON, null for "none". */
import type { TerrainKind, UnitKind } from './data.ts';

export type TkEvent =
  /** TERRAIN: where the cities, forests and mountains lie, from the seed or the options. */
  | { type: 'TerrainPlaced'; source: 'seed' | 'options'; cities: string[]; forests: string[]; mountains: string[] }
  /** SETUP: one unit placed in its player's corner. */
  | { type: 'UnitPlaced'; seat: string; unit: string; kind: UnitKind; square: string }
  /** Placement is over; units that found no free square in their corner stay out. */
  | { type: 'SetupCompleted'; unplaced: { seat: string; kind: UnitKind; count: number }[] }
  | { type: 'TurnStarted'; seat: string; round: number }
  /** MOVE PHASE: a unit moved along `path` (every square entered, the last is `to`). */
  | { type: 'UnitMoved'; seat: string; unit: string; from: string; to: string; path: string[] }
  /** TERRAIN: the last player to have occupied a city controls it. */
  | { type: 'CityOccupied'; square: string; seat: string; previous: string | null }
  | { type: 'MovementEnded'; seat: string }
  /** ATTACK PHASE: one attack; `damageThisPhase` against the target's `defense` now. */
  | { type: 'UnitAttacked'; seat: string; unit: string; target: string; damage: number; damageThisPhase: number; defense: number }
  /** The target's damage reached its defense: it must retreat to one of `options`. */
  | { type: 'RetreatForced'; seat: string; unit: string; from: string; options: string[] }
  | { type: 'UnitRetreated'; seat: string; unit: string; from: string; to: string; direction: 'back' | 'lateral' }
  | { type: 'UnitDestroyed'; seat: string; unit: string; kind: UnitKind; square: string; reason: 'DOUBLE_WHAMMY' | 'OFF_BOARD' | 'NO_RETREAT' }
  /** A player who has lost both Generals (or left: resigned, ran out of time) is out; their units leave the board. */
  | { type: 'PlayerOut'; seat: string; reason: string; cause?: 'generals' | 'left' }
  | { type: 'TurnEnded'; seat: string; round: number }
  | { type: 'GameEnded'; winners: string[]; reason: string };

export type TerrainLayout = { cities: string[]; forests: string[]; mountains: string[] };
export type { TerrainKind };
