/**
 * The demo's seven spreads and its unit roster, as data. The gaps of the printed demo
 * (fifth RNG rows, the roster) are filled by the service's rulings (docs/rules/warchon.md). Options may
 * replace the roster and the spreads.
 */
import type { Army, RandomEventEntry, SpecialRules, Spread, UnitType } from './types.ts';

/** Combat Results Table columns, left to right: the battle differential (AS - DS). */
export const COLUMNS = ['-5', '-4', '-3/-2', '-1/0/+1', '+2/+3', '+4', '+5'] as const;

/** Ruling: RNG tables are Latin squares; the cut-short fifth row is the fourth shifted one place left. */
function latinSquare(rows: string[][]): string[][] {
  const fourth = rows[3]!;
  return [...rows, [...fourth.slice(1), fourth[0]!]];
}

const row = (s: string) => s.split(/\s+/);

const special = (text: string, more: Partial<SpecialRules> = {}): SpecialRules => ({
  text,
  csBonuses: [],
  leaveBattleLimit: null,
  alwaysEngaged: false,
  berserkMultiplier: 2,
  ...more,
});

const ERDON_EVENTS: RandomEventEntry[] = [
  {
    name: 'Inspired Charge',
    text: 'All units in an attacking army with at least one "Tactics" unit gain +2 AS this turn.',
    effect: { kind: 'armyModifier', side: 'attacker', stat: 'AS', value: 2, requiresTrait: 'Tactics' },
  },
  {
    name: 'Fortified Defense',
    text: 'All units in the defending army gain +2 DS this turn.',
    effect: { kind: 'armyModifier', side: 'defender', stat: 'DS', value: 2, requiresTrait: null },
  },
  {
    name: 'Deadly Confrontation',
    text: 'Both armies assign 1 Hit to one of their units in this battle immediately.',
    effect: { kind: 'eachArmyTakesHits', hits: 1 },
  },
  {
    name: 'Surprise Reserve',
    text: 'The Controlling army may move one additional unit into the battle instantly from another location within that unit\'s Movement, even if that unit had already moved this turn. Its Size does not affect Capacity this turn, but must retreat one spread when this turn is over.',
    effect: { kind: 'surpriseReserve' },
  },
  { name: 'Torrential Rain', text: 'End combat immediately.', effect: { kind: 'endCombat' } },
];

const DRACOSROAR_EVENTS: RandomEventEntry[] = [
  {
    name: 'Ramping Water Elemental',
    text: 'Generate a number. On a 1 or 2, it joins the Attacking army this turn; 3 or 4, the Defending army. Treat it as a 4 CS, 2 Hits, "Aquatic" unit in either case. On a 5, all armies are at halved CS this turn.',
    effect: { kind: 'waterElemental', cs: 4, hits: 2, trait: 'Aquatic' },
  },
  {
    name: 'Accidental Fall',
    text: 'Each army picks one opposing unit without "Aerial" or "Aquatic." The selected units are destroyed.',
    effect: { kind: 'accidentalFall', immune: ['Aerial', 'Aquatic'] },
  },
  {
    name: 'Magic Bridge',
    text: "All units in the Attacking army may attack as normal this turn (ignore location's attack restriction).",
    effect: { kind: 'magicBridge' },
  },
  {
    name: 'Magic Bridge',
    text: 'As Event #3, except the Attacking army chooses which units will attack now, then generate a number. On a 1 or 2, the bridge is an illusion, and those committed units without "Aerial" or "Aquatic" are destroyed immediately.',
    effect: { kind: 'magicBridgeIllusion', immune: ['Aerial', 'Aquatic'] },
  },
  {
    name: "River's Fury",
    text: 'Each player selects a unit from the opposing Battle Army randomly. That unit takes 1 Hit immediately.',
    effect: { kind: 'riversFury' },
  },
];

const TZASK_EVENTS: RandomEventEntry[] = [
  {
    name: 'Volcanic Eruption',
    text: 'All units except Brimstone Dragons are destroyed immediately. End combat.',
    effect: { kind: 'volcanicEruption', spared: 'Brimstone Dragons' },
  },
  {
    name: 'Magma Flow',
    text: 'All units with Movement of 2 or less are destroyed immediately. All other units must retreat one spread immediately. End combat.',
    effect: { kind: 'magmaFlow', maxMovement: 2 },
  },
  {
    name: 'Earthquake',
    text: 'All units without "Aerial" take 1 Hit and have their CS reduced to 1.',
    effect: { kind: 'hitAndSetCs', trait: 'Aerial', withTrait: false, cs: 1 },
  },
  {
    name: 'Lava Burst',
    text: 'All units with "Aerial" take 1 Hit and have their CS reduced to 1.',
    effect: { kind: 'hitAndSetCs', trait: 'Aerial', withTrait: true, cs: 1 },
  },
  { name: 'None', text: 'Use the original number for combat result.', effect: { kind: 'none' } },
];

const XETTI_EVENTS: RandomEventEntry[] = [
  {
    name: 'Assassination',
    text: 'Generate a number. On 1 or 2, the Attacking army loses one unit of choice to contracted assassins; on 3 or 4, the Defending army loses one unit of choice. On 5, no effect.',
    effect: { kind: 'assassination' },
  },
  {
    name: 'Swarming Mob',
    text: 'The unit with the largest Size in this battle has its CS reduced to 0 this turn. In a tie, all such units have their CS reduced.',
    effect: { kind: 'swarmingMob' },
  },
  {
    name: 'Cull the Weak',
    text: 'The unit with the least DS in this battle is destroyed, whether attacking or defending. In a tie, all such units are removed.',
    effect: { kind: 'cullTheWeak' },
  },
  {
    name: 'Bribery',
    text: 'The Controlling army selects one opposing unit in this battle. It fights for the Controlling army for this turn only, its Size is temporarily 0 for Capacity purpose.',
    effect: { kind: 'bribery', by: 'controlling' },
  },
  {
    name: 'Shell Game',
    text: "As #4, except it's the non-Controlling army that gets one opposing unit.",
    effect: { kind: 'bribery', by: 'nonControlling' },
  },
];

/** Two spreads print the same Combat Results Table. */
const CRT_IRONDALE_STYLE = [row('AE AE A2 A1 D2 DE DE'), row('AE A4 A1 So D1 D4 DE'), row('A4 A3 A1D1 A1D1 A1D1 D3 D4')];
const CRT_TZASK_STYLE = [row('AE A4 A2 A1 D2 D4 DE'), row('A4 A3 A2D1 A1D1 A1D2 D3 D4'), row('A3 A2 A1 So D1 D2 D3')];

export const DEMO_SPREADS: Spread[] = [
  {
    number: 1,
    name: 'Erdon Pass',
    terrain: ['Valley'],
    capacity: 4,
    special: special('Only one unit per army may move out of battle at this location each turn.', { leaveBattleLimit: 1 }),
    paths: [4],
    rng: latinSquare([row('3 4 5E 1 2'), row('4 5E 1 2 3'), row('5E 1 2 3 4'), row('1 2 3 4 5E')]),
    crt: [row('AE A3 A2 A1 D2 D3 DE'), row('A3 A2 A1 So D1 D2 D3'), row('A2 A2D1 A1D1 Eg A1D1 A1D2 D2')],
    events: ERDON_EVENTS,
  },
  {
    number: 2,
    name: 'Irondale',
    terrain: ['Fortress'],
    capacity: 6,
    special: special('All "Construct" units gain +1 CS.', { csBonuses: [{ trait: 'Construct', cs: 1 }] }),
    paths: [5],
    rng: latinSquare([row('4 5 1 2 3'), row('5 1 2 3 4'), row('1 2 3 4 5'), row('2 3 4 5 1')]),
    crt: CRT_IRONDALE_STYLE,
    events: null,
  },
  {
    number: 3,
    name: 'Dracosroar, the Raging River',
    terrain: ['Aquatic', 'River'],
    capacity: 7,
    special: special('None printed.'),
    paths: [6],
    rng: latinSquare([row('3 4 5 1 2E'), row('4 5 1 2E 3'), row('5 1 2E 3 4'), row('1 2E 3 4 5')]),
    crt: CRT_IRONDALE_STYLE,
    events: DRACOSROAR_EVENTS,
  },
  {
    number: 4,
    name: 'Akibatu, "The Killing Ground"',
    terrain: ['Wasteland'],
    capacity: 10,
    special: special('Units in battle always remain Engaged. Units with "Berserk" triple their CS instead of doubling, when berserking.', {
      alwaysEngaged: true,
      berserkMultiplier: 3,
    }),
    paths: [1, 7],
    rng: latinSquare([row('5 1 2 3 4'), row('1 2 3 4 5'), row('2 3 4 5 1'), row('3 4 5 1 2')]),
    crt: [row('AE A3 A3D1 A2 A1D3 D3 DE'), row('A3 A3D1 A2 D1 D2 A1D3 D3'), row('A3D1 A2 A2D1 A2D2 A1D2 D2 A1D3')],
    events: null,
  },
  {
    number: 5,
    name: 'Mount Tzask',
    terrain: ['Mountain', 'Volcano'],
    capacity: 8,
    special: special('None printed.'),
    paths: [2],
    rng: latinSquare([row('1 2E 3 4E 5'), row('2E 3 4E 5 1'), row('3 4E 5 1 2E'), row('4E 5 1 2E 3')]),
    crt: CRT_TZASK_STYLE,
    events: TZASK_EVENTS,
  },
  {
    number: 6,
    name: 'Xetti Bishum',
    terrain: ['City', 'Wasteland'],
    capacity: 7,
    special: special('Goblin Assassins gain +1 CS while in this location.', { csBonuses: [{ name: 'Goblin Assassins', cs: 1 }] }),
    paths: [3],
    rng: latinSquare([row('4E 5 1 2 3'), row('5 1 2 3 4E'), row('1 2 3 4E 5'), row('2 3 4E 5 1')]),
    crt: CRT_TZASK_STYLE,
    events: XETTI_EVENTS,
  },
  {
    number: 7,
    name: 'Kier-Zhadd',
    terrain: ['Mountain'],
    capacity: 8,
    special: special('Units with Size of 3 or higher gain +1 CS.', { csBonuses: [{ minSize: 3, cs: 1 }] }),
    paths: [],
    rng: latinSquare([row('1 2 3 4 5'), row('2 3 4 5 1'), row('3 4 5 1 2'), row('4 5 1 2 3')]),
    crt: CRT_IRONDALE_STYLE,
    events: null,
  },
];

const line = (size: number, movement: number, as: number, ds: number) => ({ size, movement, as, ds });

/** Ruling: the service's demo armies (the printed roster is cut short); they reproduce the worked example, 9 AS against 7 DS. */
export const DEMO_ROSTER: UnitType[] = [
  {
    key: 'baphite-swarm',
    name: 'Baphite Swarm',
    army: 'azuthkan',
    count: 2,
    descriptors: ['Demon'],
    points: 2,
    traits: ['Nether'],
    lines: [line(2, 3, 2, 2)],
    special: '-1 CS in Frigid locations.',
    terrainModifiers: [{ terrain: 'Frigid', cs: -1 }],
  },
  {
    key: 'deathknoll-ogres',
    name: 'Deathknoll Ogres',
    army: 'azuthkan',
    count: 1,
    descriptors: ['Ogre', 'Brutes'],
    points: 4,
    traits: ['Nether'],
    lines: [line(3, 2, 4, 4), line(3, 2, 3, 3)],
    special: 'None printed.',
    terrainModifiers: [],
  },
  {
    key: 'goblin-assassins',
    name: 'Goblin Assassins',
    army: 'azuthkan',
    count: 1,
    descriptors: ['Goblin'],
    points: 1,
    traits: ['Nether'],
    lines: [line(1, 3, 1, 1)],
    special: 'Gain +1 CS in Xetti Bishum.',
    terrainModifiers: [],
  },
  {
    key: 'celestine-paladins',
    name: 'Celestine Paladins',
    army: 'celestine',
    count: 1,
    descriptors: ['Human', 'Warrior'],
    points: 3,
    traits: ['Purity'],
    lines: [line(2, 2, 3, 3)],
    special: 'None printed.',
    terrainModifiers: [],
  },
  {
    key: 'celestine-war-angels',
    name: 'Celestine War Angels',
    army: 'celestine',
    count: 1,
    descriptors: ['Angel'],
    points: 4,
    traits: ['Aerial', 'Purity', 'Magical'],
    lines: [line(2, 4, 3, 2), line(2, 4, 2, 1)],
    special: 'None printed.',
    terrainModifiers: [],
  },
  {
    key: 'celestine-crusaders',
    name: 'Celestine Crusaders',
    army: 'celestine',
    count: 1,
    descriptors: ['Human', 'Warrior'],
    points: 2,
    traits: ['Purity'],
    lines: [line(2, 2, 2, 2)],
    special: 'None printed.',
    terrainModifiers: [],
  },
];

/** Setup: Azuthkan in spreads 5 to 7 first, then Celestine in 1 to 3. */
export const DEMO_SETUP_SPREADS: Record<Army, number[]> = { azuthkan: [5, 6, 7], celestine: [1, 2, 3] };

/** Dracosroar's Ramping Water Elemental is not a playmark; the service gives it this type. */
export const WATER_ELEMENTAL_KEY = 'ramping-water-elemental';
export function waterElementalType(army: Army, cs: number, hits: number, trait: string): UnitType {
  return {
    key: WATER_ELEMENTAL_KEY,
    name: 'Ramping Water Elemental',
    army,
    count: 0,
    descriptors: ['Elemental'],
    points: 0,
    traits: [trait],
    lines: Array.from({ length: hits }, () => line(0, 0, cs, cs)),
    special: 'Joins a battle at Dracosroar for one turn.',
    terrainModifiers: [],
  };
}
