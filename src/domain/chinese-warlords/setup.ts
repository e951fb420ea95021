/**
 * STARTING FORCES and WARLORD SPECIAL ABILITIES. Each side begins with 1 Stronghold,
 * 1 Warlord, 3 Peasants, 2 Thugs and 1 Bodyguard, treasury 0 (ruling), and an ability
 * rolled on 1D10.
 */
import type { Random, SetupInput } from '../kernel/index.ts';
import { ABILITIES, STARTING_FORCES, type UnitType } from './data.ts';
import type { SetupPlayer, WarlordsEvent } from './events.ts';
import { DEFAULT_MAP, distance, generateMap, mapFromInput, type MapData, type MapInput } from './map.ts';
import type { WarlordsState } from './state.ts';

export interface WarlordsOptions {
  /** A map given as data; null: the default two-player map (or a generated one for 3-4 players). */
  map?: MapInput | null;
  /** Generate a map from the game's seed with this size (ruling: villages by rivers, roads between villages, paddies beside villages). */
  mapGenerator?: { width: number; height: number } | null;
  /** Optional turn limit: reaching its end is a draw. */
  turnLimit?: number | null;
}

export const DEFAULT_GENERATED_SIZE = { width: 14, height: 11 };

const mapInputSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 100 },
    hexes: {
      type: 'array',
      minItems: 2,
      maxItems: 2500,
      items: {
        type: 'object',
        properties: {
          col: { type: 'integer', minimum: 0, maximum: 99 },
          row: { type: 'integer', minimum: 0, maximum: 99 },
          terrain: { enum: ['village', 'stronghold', 'open', 'road', 'paddies', 'jungle', 'water'] },
        },
        required: ['col', 'row', 'terrain'],
        additionalProperties: false,
      },
    },
    strongholds: { type: 'array', items: { type: 'string', pattern: '^[0-9]+,[0-9]+$' }, minItems: 2, maxItems: 4, uniqueItems: true },
  },
  required: ['hexes'],
  additionalProperties: false,
};

export const optionsSchema = {
  type: 'object',
  properties: {
    map: { anyOf: [{ type: 'null' }, mapInputSchema], default: null, description: 'A hex map as data (odd-r offset "col,row"); strongholds in seat order' },
    mapGenerator: {
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          properties: { width: { type: 'integer', minimum: 8, maximum: 40, default: 14 }, height: { type: 'integer', minimum: 6, maximum: 40, default: 11 } },
          additionalProperties: false,
        },
      ],
      default: null,
      description: 'Generate the map from the game seed (used by default for 3 or 4 players)',
    },
    turnLimit: { anyOf: [{ type: 'null' }, { type: 'integer', minimum: 1, maximum: 1000 }], default: null, description: 'The game ends as a draw after this turn' },
  },
  additionalProperties: false,
};

export function initialState({ options, players }: SetupInput<WarlordsOptions>): WarlordsState {
  return {
    seats: [...players],
    map: { name: '', hexes: [], strongholds: [] },
    turnLimit: options?.turnLimit ?? null,
    turn: 0,
    order: [],
    phase: 'setup',
    seat: null,
    stepDone: false,
    players: {},
    units: [],
    nextUnit: 1,
    control: {},
    upkeepLosses: {},
    villageToChoose: [],
    attack: null,
    defense: null,
    result: null,
  };
}

export function chooseMap(options: WarlordsOptions, players: number, random: Random): MapData {
  if (options?.map) return mapFromInput(options.map, players);
  if (options?.mapGenerator || players > 2) return generateMap(random, players, { ...DEFAULT_GENERATED_SIZE, ...(options?.mapGenerator ?? {}) });
  return DEFAULT_MAP;
}

/** RULINGS, ability 4: "nearby" is within this many hexes of the Warlord's stronghold. */
export const NEARBY_VILLAGE_RANGE = 3;

/** Ability 4, "Control of one nearby village": the villages no player controls within 3 hexes of the stronghold. */
export function nearbyVillages(s: WarlordsState, seat: string): string[] {
  const stronghold = s.players[seat]!.stronghold;
  return s.map.hexes.filter((h) => h.terrain === 'village' && !s.control[h.id] && distance(h.id, stronghold) <= NEARBY_VILLAGE_RANGE).map((h) => h.id);
}

/** The player whose ability 4 village is still to be chosen, in seat order. */
export function choosingVillage(s: WarlordsState): string | null {
  return s.villageToChoose[0] ?? null;
}

export function gameSetUp(input: SetupInput<WarlordsOptions>, random: Random): WarlordsEvent {
  const map = chooseMap(input.options, input.players.length, random);
  const players: SetupPlayer[] = [];
  const units: { id: string; type: UnitType; owner: string; hex: string }[] = [];
  let next = 1;
  input.players.forEach((seat, i) => {
    const stronghold = map.strongholds[i]!;
    const abilityRoll = random.die(10);
    const effect = ABILITIES[abilityRoll]!.effect;
    const extraIncomeRolls = effect === 'extraIncome' ? [random.die(6), random.die(6)] : null;
    // Ability 4's village is the player's choice, made once everyone is set up (NearbyVillageTaken).
    const village: string | null = null;
    const forces: UnitType[] = [...STARTING_FORCES, ...(effect === 'bodyguards' ? (['bodyguards', 'bodyguards', 'bodyguards'] as UnitType[]) : [])];
    for (const type of forces) units.push({ id: `${seat}-${next++}`, type, owner: seat, hex: stronghold });
    players.push({ seat, stronghold, abilityRoll, extraIncomeRolls, treasury: extraIncomeRolls ? extraIncomeRolls[0]! + extraIncomeRolls[1]! : 0, village });
  });
  return { type: 'GameSetUp', map, turnLimit: input.options?.turnLimit ?? null, players, units };
}
