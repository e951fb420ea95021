/**
 * SETUP and TERRAIN: the battlefield from the seed (or the options), then players take
 * turns placing one unit at a time in their own 5x5 corner, in the seat order chosen at
 * creation. No dice decide who goes first (INTRODUCTION: no dice or cards).
 */
import type { Random, SetupInput } from '../kernel/index.ts';
import { ALL_SQUARES, cornerLabel, cornerOf, cornerSquares } from './board.ts';
import { CORNER_BY_SEAT_ORDER, CORNER_SIZE, TERRAIN_COUNTS, UNIT_KINDS, UNIT_LIST, type UnitKind } from './data.ts';
import type { TerrainLayout, TkEvent } from './events.ts';
import type { TkCommand } from './commands.ts';
import { faction, unitAt, type TkState } from './state.ts';

export interface TkOptions {
  /** A layout to use instead of the seed's. A square listed twice keeps its first kind (mountains, forests, cities). */
  terrain?: TerrainLayout | null;
  /** Rounds after which the game ends as a draw (ruling). */
  turnLimit?: number | null;
}

export function initialState({ options, players }: SetupInput<TkOptions>): TkState {
  const armies = Object.fromEntries(players.map((p) => [p, Object.fromEntries(UNIT_KINDS.map((k) => [k, UNIT_LIST[k].count]))]));
  return {
    players: [...players],
    corners: Object.fromEntries(players.map((p, i) => [p, CORNER_BY_SEAT_ORDER[i]!])),
    turnLimit: options?.turnLimit ?? null,
    stage: 'SETUP',
    terrain: {},
    cities: {},
    reserves: armies as TkState['reserves'],
    units: [],
    destroyed: [],
    terrainPlaced: false,
    lastPlacer: null,
    round: 0,
    active: null,
    phase: null,
    moved: [],
    attacked: [],
    damage: {},
    retreated: [],
    pendingRetreat: null,
    out: [],
    left: [],
    result: null,
  };
}

/** The most mountains a corner may get: every army must still fit in its corner. */
const MOUNTAINS_PER_CORNER = CORNER_SIZE * CORNER_SIZE - UNIT_KINDS.reduce((n, k) => n + UNIT_LIST[k].count, 0);

/**
 * TERRAIN: "randomly distribute" 10 mountains, then 10 forests, then 10 cities over the
 * free squares, each square drawn with one die roll over the squares still free. A corner
 * never gets more mountains than leave room for a whole army (ruling).
 */
export function rollTerrain(random: Random): TerrainLayout {
  const taken = new Set<string>();
  const cornerMountains: Record<string, number> = {};
  // Counts every terrain square taken in a corner; only the mountain draw reads it.
  const draw = (count: number, allowed: (s: string) => boolean): string[] => {
    const picked: string[] = [];
    for (let i = 0; i < count; i++) {
      const free = ALL_SQUARES.filter((s) => !taken.has(s) && allowed(s));
      if (free.length === 0) break;
      const square = free[random.die(free.length) - 1]!;
      taken.add(square);
      picked.push(square);
      const corner = cornerOf(square);
      if (corner) cornerMountains[corner] = (cornerMountains[corner] ?? 0) + 1;
    }
    return picked;
  };
  const mountains = draw(TERRAIN_COUNTS.mountain, (s) => {
    const corner = cornerOf(s);
    return corner === null || (cornerMountains[corner] ?? 0) < MOUNTAINS_PER_CORNER;
  });
  const forests = draw(TERRAIN_COUNTS.forest, () => true);
  const cities = draw(TERRAIN_COUNTS.city, () => true);
  return { cities: sorted(cities), forests: sorted(forests), mountains: sorted(mountains) };
}

function sorted(squares: string[]): string[] {
  return [...squares].sort((a, b) => ALL_SQUARES.indexOf(a) - ALL_SQUARES.indexOf(b));
}

/** A layout given at creation; a square listed twice keeps the first kind. */
export function givenTerrain(layout: TerrainLayout): TerrainLayout {
  const seen = new Set<string>();
  const keep = (list: string[]) => sorted(list.filter((s) => !seen.has(s) && (seen.add(s), true)));
  const mountains = keep(layout.mountains);
  const forests = keep(layout.forests);
  const cities = keep(layout.cities);
  return { cities, forests, mountains };
}

/** TERRAIN: the battlefield, from the options or the seed. Placement follows (turns.ts flow). */
export function terrainEvent(options: TkOptions | undefined, random: Random): TkEvent {
  const given = options?.terrain ?? null;
  const layout = given ? givenTerrain(given) : rollTerrain(random);
  return { type: 'TerrainPlaced', source: given ? 'options' : 'seed', ...layout };
}

/**
 * The step of setup nobody chooses (turns.ts flow loops it): setup ends once nobody can
 * place; a placer whose only option is one unit kind on one square places it without being
 * asked (ruling: a choice with exactly one legal option is taken automatically).
 */
export function setupStep(s: TkState): TkEvent[] {
  if (!s.terrainPlaced) return [];
  const placer = placerOf(s);
  if (placer === null) return [completion(s)];
  const options = placementCommands(s, placer);
  if (options.length !== 1) return [];
  const only = options[0] as Extract<TkCommand, { type: 'placeUnit' }>;
  return placement(s, placer, only.kind, only.square);
}

function placement(state: TkState, seat: string, kind: UnitKind, square: string): TkEvent[] {
  const n = UNIT_LIST[kind].count - state.reserves[seat]![kind] + 1;
  const events: TkEvent[] = [{ type: 'UnitPlaced', seat, unit: `${seat}-${kind}-${n}`, kind, square }];
  if (state.terrain[square] === 'city' && state.cities[square] !== seat) {
    events.push({ type: 'CityOccupied', square, seat, previous: state.cities[square] ?? null });
  }
  return events;
}

/** Free squares of a seat's corner: no mountain, no unit (units may not stack). */
export function freeCornerSquares(state: TkState, seat: string): string[] {
  return cornerSquares(state.corners[seat]!).filter((s) => state.terrain[s] !== 'mountain' && !unitAt(state, s));
}

function unitsLeft(state: TkState, seat: string): number {
  const reserve = state.reserves[seat];
  return reserve ? UNIT_KINDS.reduce((n, k) => n + reserve[k], 0) : 0;
}

export function canPlace(state: TkState, seat: string): boolean {
  return !state.out.includes(seat) && unitsLeft(state, seat) > 0 && freeCornerSquares(state, seat).length > 0;
}

/** Whose placement it is: players take turns, in seat order, each after the last one who placed. */
export function placerOf(state: TkState): string | null {
  return state.stage === 'SETUP' && state.terrainPlaced ? nextPlacer(state, state.lastPlacer) : null;
}

/** Players take turns placing: the next seat after `after` (in seat order) that still can. */
export function nextPlacer(state: TkState, after: string | null): string | null {
  const n = state.players.length;
  const start = after === null ? 0 : state.players.indexOf(after) + 1;
  for (let i = 0; i < n; i++) {
    const seat = state.players[(start + i) % n]!;
    if (canPlace(state, seat)) return seat;
  }
  return null;
}

/** Setup is over: units that found no free square in their corner stay out. */
function completion(state: TkState): TkEvent {
  const unplaced: { seat: string; kind: UnitKind; count: number }[] = [];
  for (const seat of state.players) {
    for (const kind of UNIT_KINDS) {
      const count = state.reserves[seat]?.[kind] ?? 0;
      if (count > 0) unplaced.push({ seat, kind, count });
    }
  }
  return { type: 'SetupCompleted', unplaced };
}

export function placeUnit(state: TkState, seat: string, kind: UnitKind, square: string): TkEvent[] | string {
  const reserve = state.reserves[seat]!;
  if (reserve[kind] <= 0) return `All your ${UNIT_LIST[kind].plural} are already on the board`;
  if (!cornerSquares(state.corners[seat]!).includes(square)) return `${square} is outside your ${cornerLabel(state.corners[seat]!)}`;
  if (state.terrain[square] === 'mountain') return `${square} is a mountain: no unit may stand there`;
  const there = unitAt(state, square);
  if (there) return `${square} is taken by ${faction(there.seat)}'s unit: units may not stack`;
  return placement(state, seat, kind, square);
}

export function placementCommands(state: TkState, seat: string): TkCommand[] {
  const free = freeCornerSquares(state, seat);
  const reserve = state.reserves[seat]!;
  return UNIT_KINDS.filter((k) => reserve[k] > 0).flatMap((kind) => free.map((square) => ({ type: 'placeUnit' as const, kind, square })));
}
