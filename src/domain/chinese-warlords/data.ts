/**
 * The printed tables of Chinese Warlords, as data: unit types, terrain, the Combat
 * Resolution Table and the warlord special abilities. Names follow the rulebook.
 */

export type UnitType =
  | 'peasants'
  | 'thugs'
  | 'bodyguards'
  | 'lieutenant'
  | 'warlord'
  | 'vehicles'
  | 'machineGun'
  | 'artillery'
  | 'armoredVehicle'
  | 'boats';

/** How a unit moves (ruling: vehicles are Assorted Vehicles, Armored Vehicle and Boats). */
export type Mobility = 'foot' | 'vehicle' | 'boat';

export interface UnitStats {
  name: string;
  move: number;
  force: number;
  range: number;
  /** Recruitment cost and upkeep basis. The Warlord's printed "-" reads as 0 (ruling). */
  cost: number;
  carry: number;
  mobility: Mobility;
  /** unlimited: Peasants, Thugs, Bodyguards, Lieutenants; availability: roll 1D6 first; never: the Warlord. */
  recruit: 'unlimited' | 'availability' | 'never';
}

/** UNIT TYPES, as printed. */
export const UNIT_TYPES: Record<UnitType, UnitStats> = {
  peasants: { name: 'Poorly Armed Peasants', move: 2, force: 1, range: 1, cost: 1, carry: 0, mobility: 'foot', recruit: 'unlimited' },
  thugs: { name: 'Gun toting Thugs', move: 2, force: 3, range: 1, cost: 2, carry: 0, mobility: 'foot', recruit: 'unlimited' },
  bodyguards: { name: 'Well Armed Bodyguards', move: 2, force: 5, range: 1, cost: 3, carry: 0, mobility: 'foot', recruit: 'unlimited' },
  lieutenant: { name: 'Trusted Lieutenant', move: 2, force: 3, range: 1, cost: 3, carry: 0, mobility: 'foot', recruit: 'unlimited' },
  warlord: { name: 'Warlord', move: 2, force: 9, range: 1, cost: 0, carry: 0, mobility: 'foot', recruit: 'never' },
  vehicles: { name: 'Assorted Vehicles', move: 6, force: 1, range: 1, cost: 3, carry: 1, mobility: 'vehicle', recruit: 'availability' },
  machineGun: { name: 'Machine Gun', move: 2, force: 7, range: 1, cost: 4, carry: 0, mobility: 'foot', recruit: 'availability' },
  artillery: { name: 'Artillery piece', move: 1, force: 4, range: 3, cost: 6, carry: 0, mobility: 'foot', recruit: 'availability' },
  armoredVehicle: { name: 'Armored Vehicle', move: 4, force: 10, range: 2, cost: 8, carry: 1, mobility: 'vehicle', recruit: 'availability' },
  boats: { name: 'Boats', move: 4, force: 1, range: 1, cost: 3, carry: 2, mobility: 'boat', recruit: 'availability' },
};

export const UNIT_TYPE_IDS = Object.keys(UNIT_TYPES) as UnitType[];
export const RECRUITABLE = UNIT_TYPE_IDS.filter((t) => UNIT_TYPES[t].recruit !== 'never');

export type Terrain = 'village' | 'stronghold' | 'open' | 'road' | 'paddies' | 'jungle' | 'water';

export interface TerrainStats {
  name: string;
  income: number;
  /** Movement points for foot units to enter; null = may not enter. */
  foot: number | null;
  /** Movement points for vehicles to enter; null = may not enter. */
  vehicles: number | null;
  /** Water: "1* = Boats only. Other vehicles cannot enter water." */
  boatsOnly: boolean;
  defense: number;
}

/** TERRAIN, as printed. */
export const TERRAIN: Record<Terrain, TerrainStats> = {
  village: { name: 'Village', income: 1, foot: 1, vehicles: 2, boatsOnly: false, defense: 5 },
  stronghold: { name: 'Stronghold', income: 4, foot: 1, vehicles: 2, boatsOnly: false, defense: 15 },
  open: { name: 'Open', income: 0, foot: 1, vehicles: 2, boatsOnly: false, defense: 0 },
  road: { name: 'Road', income: 0, foot: 1, vehicles: 1, boatsOnly: false, defense: 0 },
  paddies: { name: 'Rice Paddies', income: 0, foot: 2, vehicles: null, boatsOnly: false, defense: 1 },
  jungle: { name: 'Jungle', income: 0, foot: 2, vehicles: null, boatsOnly: false, defense: 2 },
  water: { name: 'Water', income: 0, foot: null, vehicles: 1, boatsOnly: true, defense: 0 },
};

export const TERRAIN_IDS = Object.keys(TERRAIN) as Terrain[];

export type CombatResult = 'A' | 'K2' | 'K' | 'R' | '-';

/** The force-ratio columns, attacker:defender, best for the attacker first. */
export const CRT_COLUMNS = ['5+:1', '4:1', '3:1', '2:1', '1:1', '1:2', '1:3+'] as const;
export type CrtColumn = (typeof CRT_COLUMNS)[number];

/** COMBAT RESOLUTION TABLE, exactly as printed: row i is the 1D10 roll i+1 (the die's 0 is the last row, 10). */
export const COMBAT_RESOLUTION_TABLE: CombatResult[][] = [
  /* 1 */ ['A', 'K2', 'K2', 'K', 'K', 'K', 'R'],
  /* 2 */ ['K2', 'K2', 'K', 'K', 'K', 'R', 'R'],
  /* 3 */ ['K2', 'K', 'K', 'K', 'R', 'R', 'R'],
  /* 4 */ ['K', 'K', 'K', 'R', 'R', 'R', '-'],
  /* 5 */ ['K', 'K', 'R', 'R', 'R', '-', '-'],
  /* 6 */ ['K', 'R', 'R', 'R', '-', '-', '-'],
  /* 7 */ ['R', 'R', 'R', '-', '-', '-', '-'],
  /* 8 */ ['R', 'R', '-', '-', '-', '-', '-'],
  /* 9 */ ['R', '-', '-', '-', '-', '-', '-'],
  /* 0 */ ['-', '-', '-', '-', '-', '-', '-'],
];

export type AbilityEffect = 'revenue' | 'village' | 'availability' | 'popularity' | 'bodyguards' | 'mechanics' | 'extraIncome';

export interface Ability {
  name: string;
  effect: AbilityEffect;
  text: string;
}

/** WARLORD SPECIAL ABILITIES, by the 1D10 roll (0 reads as 10). */
export const ABILITIES: Record<number, Ability> = {
  1: { name: 'Drug Trade', effect: 'revenue', text: '+1 Revenue' },
  2: { name: 'Prostitution Ring', effect: 'revenue', text: '+1 Revenue' },
  3: { name: 'Railway', effect: 'revenue', text: '+1 Revenue' },
  4: { name: 'Nearby Village', effect: 'village', text: 'Begin game with Control of one nearby village' },
  5: { name: 'Trade contacts', effect: 'availability', text: '+1 to Availability rolls' },
  6: { name: 'Popularity', effect: 'popularity', text: 'Get 2 peasant units for the price of one' },
  7: { name: 'Extra Bodyguards', effect: 'bodyguards', text: 'Begin game with 3 extra Bodyguard units' },
  8: { name: 'Mechanics', effect: 'mechanics', text: '+2 to Availability rolls of Vehicles' },
  9: { name: 'War Chest', effect: 'extraIncome', text: 'Begin game with 2D6 extra income' },
  10: { name: 'War Chest', effect: 'extraIncome', text: 'Begin game with 2D6 extra income' },
};

/** STARTING FORCES (besides the Stronghold): 1 Warlord, 3 Peasants, 2 Thugs, 1 Bodyguard. */
export const STARTING_FORCES: UnitType[] = ['warlord', 'peasants', 'peasants', 'peasants', 'thugs', 'thugs', 'bodyguards'];

/** Availability roll: "On a roll of 1-3 there are none of that type left available to you this turn." */
export const AVAILABILITY_FAILS_AT_OR_BELOW = 3;

export const SEATS = ['red', 'blue', 'green', 'yellow'] as const;
