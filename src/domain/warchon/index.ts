/**
 * Warchon (demo): two armies, seven spreads of a book, hidden setup and secret numbers.
 * Rulebook: the Warchon demo rulebook; where it is silent or reached us cut short, the
 * service's rulings are stated in docs/rules/warchon.md.
 */
import { notation } from './notation.ts';
import { accept, refuse, type GameModule, type JsonSchema, type SetupInput } from '../kernel/index.ts';
import { commandEvents, commandSchema, legalFor, validate } from './commands.ts';
import { DEMO_ROSTER, DEMO_SETUP_SPREADS, DEMO_SPREADS } from './data.ts';
import { evolve } from './evolve.ts';
import { advance } from './flow.ts';
import { newRun } from './run.ts';
import { rosterKeys, setupProblems } from './setup.ts';
import { status } from './status.ts';
import type { Army, UnitType, WarchonCommand, WarchonEvent, WarchonOptions, WarchonState } from './types.ts';
import { ARMIES } from './types.ts';
import { redact, view } from './view.ts';
import { eventSchema } from './event-schema.ts';
import { presentation } from './presentation.ts';
import { viewSchema } from './view-schema.ts';

const statLine = {
  type: 'object',
  properties: {
    size: { type: 'integer', minimum: 0 },
    movement: { type: 'integer', minimum: 0 },
    as: { type: 'integer', minimum: 0 },
    ds: { type: 'integer', minimum: 0 },
    traits: { type: 'array', items: { type: 'string' }, description: "this face's traits, when they differ from the unit's" },
  },
  required: ['size', 'movement', 'as', 'ds'],
  additionalProperties: false,
};

const unitTypeSchema = {
  type: 'object',
  properties: {
    key: { type: 'string', pattern: '^[a-z][a-z0-9-]*[a-z]$' },
    name: { type: 'string' },
    army: { enum: ['azuthkan', 'celestine'] },
    count: { type: 'integer', minimum: 0, maximum: 20 },
    descriptors: { type: 'array', items: { type: 'string' }, default: [] },
    points: { type: 'integer', minimum: 0, default: 0 },
    traits: { type: 'array', items: { type: 'string' }, default: [] },
    lines: { type: 'array', items: statLine, minItems: 1, maxItems: 4 },
    special: { type: 'string', default: '' },
    terrainModifiers: {
      type: 'array',
      items: { type: 'object', properties: { terrain: { type: 'string' }, cs: { type: 'integer' } }, required: ['terrain', 'cs'], additionalProperties: false },
      default: [],
    },
  },
  required: ['key', 'name', 'army', 'count', 'lines'],
  additionalProperties: false,
  allOf: [
    // "You may have only one copy of any one Distinct unit in an army."
    { if: { properties: { descriptors: { contains: { const: 'Distinct' } } }, required: ['descriptors'] }, then: { properties: { count: { maximum: 1 } } } },
    // "No unit will start off with both Nether and Purity."
    { not: { properties: { traits: { allOf: [{ contains: { const: 'Nether' } }, { contains: { const: 'Purity' } }] } }, required: ['traits'] } },
  ],
};

const cell = (pattern: string) => ({ type: 'string', pattern });
const table = (rows: number, cols: number, pattern: string) => ({
  type: 'array',
  minItems: rows,
  maxItems: rows,
  items: { type: 'array', minItems: cols, maxItems: cols, items: cell(pattern) },
});
const EFFECT_KINDS = [
  'armyModifier', 'eachArmyTakesHits', 'surpriseReserve', 'endCombat', 'waterElemental', 'accidentalFall', 'magicBridge',
  'magicBridgeIllusion', 'riversFury', 'volcanicEruption', 'magmaFlow', 'hitAndSetCs', 'none', 'assassination', 'swarmingMob',
  'cullTheWeak', 'bribery',
];

const spreadSchema = {
  type: 'object',
  properties: {
    number: { type: 'integer', minimum: 1, maximum: 99 },
    name: { type: 'string' },
    terrain: { type: 'array', items: { type: 'string' } },
    capacity: { type: 'integer', minimum: 0 },
    special: {
      type: 'object',
      properties: {
        text: { type: 'string' },
        csBonuses: {
          type: 'array',
          items: {
            type: 'object',
            properties: { trait: { type: 'string' }, name: { type: 'string' }, minSize: { type: 'integer' }, cs: { type: 'integer' } },
            required: ['cs'],
            additionalProperties: false,
          },
        },
        leaveBattleLimit: { type: ['integer', 'null'], minimum: 0 },
        alwaysEngaged: { type: 'boolean' },
        berserkMultiplier: { type: 'integer', minimum: 1 },
      },
      required: ['text', 'csBonuses', 'leaveBattleLimit', 'alwaysEngaged', 'berserkMultiplier'],
      additionalProperties: false,
    },
    paths: { type: 'array', items: { type: 'integer' } },
    rng: table(5, 5, '^[1-5]E?$'),
    crt: table(3, 7, '^(AE|DE|Eg|So|A[0-9]+D[0-9]+|A[0-9]+|D[0-9]+)$'),
    events: {
      oneOf: [
        { type: 'null' },
        {
          type: 'array',
          minItems: 5,
          maxItems: 5,
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              text: { type: 'string' },
              effect: { type: 'object', properties: { kind: { enum: EFFECT_KINDS } }, required: ['kind'] },
            },
            required: ['name', 'text', 'effect'],
            additionalProperties: false,
          },
        },
      ],
    },
  },
  required: ['number', 'name', 'terrain', 'capacity', 'special', 'paths', 'rng', 'crt', 'events'],
  additionalProperties: false,
};

export const optionsSchema: JsonSchema = {
  type: 'object',
  properties: {
    numbers: {
      enum: ['players', 'server'],
      default: 'players',
      description: 'players: both players secretly choose 1-5 for every number; server: the server draws them',
    },
    turnLimit: { type: 'integer', minimum: 1, maximum: 1000, description: 'the game ends as a draw after this many turns' },
    roster: { type: 'array', items: unitTypeSchema, minItems: 1, description: 'another unit roster (default: the service\'s demo armies, docs/rules/warchon.md)' },
    spreads: { type: 'array', items: spreadSchema, minItems: 2, description: 'other spreads, numbered 1 to n, in the shape of the demo data (default: the seven demo spreads)' },
    setupSpreads: {
      type: 'object',
      properties: {
        azuthkan: { type: 'array', items: { type: 'integer' }, minItems: 1 },
        celestine: { type: 'array', items: { type: 'integer' }, minItems: 1 },
      },
      required: ['azuthkan', 'celestine'],
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

function initialState({ options }: SetupInput<Partial<WarchonOptions> | undefined>): WarchonState {
  const o = options ?? {};
  // Options reach us with schema defaults filled in by the service, but not always in tests.
  const roster: UnitType[] = (o.roster ?? DEMO_ROSTER).map((given) => {
    const t = structuredClone(given) as Partial<UnitType> & Pick<UnitType, 'key' | 'name' | 'army' | 'count' | 'lines'>;
    return { ...t, descriptors: t.descriptors ?? [], points: t.points ?? 0, traits: t.traits ?? [], special: t.special ?? '', terrainModifiers: t.terrainModifiers ?? [] };
  });
  const state: WarchonState = {
    numbers: o.numbers ?? 'players',
    turnLimit: o.turnLimit ?? null,
    spreads: structuredClone(o.spreads ?? DEMO_SPREADS),
    types: Object.fromEntries(roster.map((t) => [t.key, t])),
    setupSpreads: structuredClone(o.setupSpreads ?? DEMO_SETUP_SPREADS),
    unplaced: { azuthkan: [], celestine: [] },
    units: {},
    phase: 'setup',
    setupArmy: null,
    turn: 0,
    active: 'azuthkan',
    moving: null,
    leftBattle: [],
    engaged: [],
    eventSpreads: [],
    forcedInto: [],
    lastBattle: 0,
    battle: null,
    pending: [],
    generations: 0,
    result: null,
  };
  for (const army of ARMIES) state.unplaced[army] = rosterKeys(state, army);
  return state;
}

export const warchon: GameModule<WarchonState, WarchonCommand, WarchonEvent, Partial<WarchonOptions>> = {
  id: 'warchon',
  name: 'Warchon',
  seats: ARMIES,
  minPlayers: 2,
  maxPlayers: 2,
  optionsSchema,
  commandSchema,
  eventSchema,
  viewSchema,
  presentation,
  exampleOptions: [{ numbers: 'players', turnLimit: 30 }, { numbers: 'server', turnLimit: 30 }],

  initialState,

  setup(input, random) {
    const state = initialState(input);
    // Options that leave a seat with no legal command during setup are refused here, saying why.
    const problems = setupProblems(state, input.options?.roster ?? DEMO_ROSTER);
    if (problems.length) throw new Error(problems.join('; '));
    const run = newRun(state);
    run.emit({ type: 'GameSetUp', numbers: state.numbers, turnLimit: state.turnLimit });
    advance(run, random);
    return run.events;
  },

  decide(state, command, seat, random) {
    const reason = validate(state, seat as Army, command);
    if (reason) return refuse(reason);
    const run = newRun(state);
    run.emit(...commandEvents(state, seat as Army, command));
    advance(run, random);
    return accept(...run.events);
  },

  evolve,
  view,
  redact,

  legalCommands(state, seat) {
    if (seat !== 'azuthkan' && seat !== 'celestine') return [];
    return legalFor(state, seat);
  },

  status,
  notation,
};

export type { WarchonState, WarchonCommand, WarchonEvent, WarchonOptions } from './types.ts';
