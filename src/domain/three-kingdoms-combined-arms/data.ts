/**
 * The game's data: the army list (UNIT LIST), the factions, the board and its corners,
 * and how much terrain is distributed. Everything a group owning the printed game might
 * want to check against the rulebook lives here.
 */

export type UnitKind = 'general' | 'armoredCavalry' | 'infantry' | 'archers' | 'rockets' | 'shockTroops' | 'horseArchers';

export interface UnitType {
  name: string;
  /** Move: squares the unit may move per turn. */
  move: number;
  /** Range: how many squares away (king moves) it may attack. */
  range: number;
  /** Defense: damage it takes in one attack phase before it must retreat. */
  defense: number;
  /** #: how many of this unit each army has. */
  count: number;
  /** Damage one attack does (UNIT SPECIAL ABILITIES: Shock Troops do 2). */
  damage: number;
  /** The name for several units of the kind, in sentences ("All your Generals ..."). */
  plural: string;
}

/** UNIT LIST, as printed. All sides use the same army list. */
export const UNIT_LIST: Record<UnitKind, UnitType> = {
  general: { name: 'General', plural: 'Generals', move: 4, range: 1, defense: 3, count: 2, damage: 1 },
  armoredCavalry: { name: 'Armored Cavalry', plural: 'Armored Cavalry', move: 4, range: 1, defense: 3, count: 2, damage: 1 },
  infantry: { name: 'Infantry', plural: 'Infantry', move: 2, range: 1, defense: 4, count: 4, damage: 1 },
  archers: { name: 'Archers', plural: 'Archers', move: 2, range: 2, defense: 3, count: 2, damage: 1 },
  rockets: { name: 'Rockets', plural: 'Rockets', move: 1, range: 3, defense: 2, count: 2, damage: 1 },
  shockTroops: { name: 'Shock Troops', plural: 'Shock Troops', move: 1, range: 1, defense: 5, count: 2, damage: 2 },
  horseArchers: { name: 'Horse Archers', plural: 'Horse Archers', move: 5, range: 2, defense: 2, count: 2, damage: 1 },
};

/** The printed order of the unit list. */
export const UNIT_KINDS = Object.keys(UNIT_LIST) as UnitKind[];

/** Seats are the factions: the Three Empires, with Jin as a fourth (ruling). */
export const FACTIONS = { wei: 'Wei', shu: 'Shu', wu: 'Wu', jin: 'Jin' } as const;
export type Seat = keyof typeof FACTIONS;
export const SEATS = Object.keys(FACTIONS) as Seat[];

/** THE MAP: a 12x12 square grid. Columns A-L west to east, rows 1-12 south to north. */
export const BOARD_SIZE = 12;
/** SETUP: each player starts in control of a 5x5 corner. */
export const CORNER_SIZE = 5;

export type CornerName = 'SW' | 'NE' | 'SE' | 'NW';

/**
 * Which corner each seat gets, by its place in the seat order chosen at creation.
 * Two players sit in opposite corners, south-west and north-east (ruling); a third
 * takes the south-east, a fourth the north-west.
 */
export const CORNER_BY_SEAT_ORDER: CornerName[] = ['SW', 'NE', 'SE', 'NW'];

/** `toward` is the direction of the corner seen from the board: a retreat goes that way. */
export const CORNERS: Record<CornerName, { x0: number; y0: number; toward: [number, number]; name: string }> = {
  SW: { x0: 0, y0: 0, toward: [-1, -1], name: 'south-west' },
  NE: { x0: BOARD_SIZE - CORNER_SIZE, y0: BOARD_SIZE - CORNER_SIZE, toward: [1, 1], name: 'north-east' },
  SE: { x0: BOARD_SIZE - CORNER_SIZE, y0: 0, toward: [1, -1], name: 'south-east' },
  NW: { x0: 0, y0: BOARD_SIZE - CORNER_SIZE, toward: [-1, 1], name: 'north-west' },
};

export type TerrainKind = 'city' | 'forest' | 'mountain';

/** TERRAIN: randomly distribute 10 cities, 10 forests and 10 mountains. */
export const TERRAIN_COUNTS: Record<TerrainKind, number> = { city: 10, forest: 10, mountain: 10 };

/** Defense bonus for units occupying a city. */
export const CITY_DEFENSE_BONUS = 1;
/** Defense bonus for friendly units adjacent to a General. */
export const GENERAL_DEFENSE_BONUS = 1;
