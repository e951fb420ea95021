/**
 * Warchon's vocabulary: armies, playmarks (units), spreads, the battle in progress and
 * the decisions the game waits for. Everything is plain JSON.
 */

export type Army = 'azuthkan' | 'celestine';
export const ARMIES: readonly Army[] = ['azuthkan', 'celestine'];
export const ARMY_NAMES: Record<Army, string> = { azuthkan: 'Azuthkan', celestine: 'Celestine' };
export function opponent(army: Army): Army {
  return army === 'azuthkan' ? 'celestine' : 'azuthkan';
}

/** One face of a playmark: a multi-Hit unit turns to its next line after each Hit. */
export interface StatLine {
  size: number;
  movement: number;
  as: number;
  ds: number;
  /** This face's traits, when they differ from the unit's ("use the traits and stats above the playmark's present stats"). */
  traits?: string[];
}

/** A playmark as printed (roster entry). `count` copies go into the army. */
export interface UnitType {
  key: string;
  name: string;
  army: Army;
  count: number;
  descriptors: string[];
  points: number;
  traits: string[];
  /** lines[0] is the full-strength face; the unit has lines.length Hits. */
  lines: StatLine[];
  /** Special abilities as printed, e.g. "-1 CS in Frigid locations". */
  special: string;
  /** CS modifiers in locations of a terrain (Baphite Swarm: -1 in Frigid locations). */
  terrainModifiers: { terrain: string; cs: number }[];
}

/** A location's "+n CS" special rule, for units matching every given condition. */
export interface CsBonus {
  trait?: string;
  name?: string;
  minSize?: number;
  cs: number;
}

export interface SpecialRules {
  text: string;
  csBonuses: CsBonus[];
  /** Erdon Pass: how many units per army may move out of battle here each turn (null: no limit). */
  leaveBattleLimit: number | null;
  /** Akibatu: units in battle always remain Engaged. */
  alwaysEngaged: boolean;
  /** Berserk multiplies CS by this (2; Akibatu 3). */
  berserkMultiplier: number;
}

/** What a Random Event does, as data (see random-events.ts). */
export type EventEffect =
  | { kind: 'armyModifier'; side: 'attacker' | 'defender'; stat: 'AS' | 'DS' | 'CS'; value: number; requiresTrait: string | null }
  | { kind: 'eachArmyTakesHits'; hits: number }
  | { kind: 'surpriseReserve' }
  | { kind: 'endCombat' }
  | { kind: 'waterElemental'; cs: number; hits: number; trait: string }
  | { kind: 'accidentalFall'; immune: string[] }
  | { kind: 'magicBridge' }
  | { kind: 'magicBridgeIllusion'; immune: string[] }
  | { kind: 'riversFury' }
  | { kind: 'volcanicEruption'; spared: string }
  | { kind: 'magmaFlow'; maxMovement: number }
  | { kind: 'hitAndSetCs'; trait: string; withTrait: boolean; cs: number }
  | { kind: 'none' }
  | { kind: 'assassination' }
  | { kind: 'swarmingMob' }
  | { kind: 'cullTheWeak' }
  | { kind: 'bribery'; by: 'controlling' | 'nonControlling' };

export interface RandomEventEntry {
  name: string;
  text: string;
  effect: EventEffect;
}

export interface Spread {
  number: number;
  name: string;
  terrain: string[];
  capacity: number;
  special: SpecialRules;
  paths: number[];
  /** rng[defenderNumber - 1][attackerNumber - 1], e.g. "5E". */
  rng: string[][];
  /** crt[row - 1][column]; rows 1-3, columns -5 .. +5 (see COLUMNS). */
  crt: string[][];
  events: RandomEventEntry[] | null;
}

export interface Unit {
  /** Public marker: `${army}-${n}`, n the order of placement. */
  id: string;
  /** Private identity: the roster copy, e.g. "baphite-swarm-2". */
  key: string;
  army: Army;
  type: string;
  spread: number | null;
  hitsTaken: number;
  destroyed: boolean;
  /** Has fought in a battle: its identity is public from then on. */
  revealed: boolean;
  shifted: boolean;
  movesLeft: number;
  /** Surprise Reserve: it joined a battle this turn and must retreat at the end of the turn. */
  reserve: boolean;
  /** The Water Elemental: not a playmark, gone after the battle. */
  temporary: boolean;
  /** Bribery / Shell Game: fights for this army this turn. */
  fightsFor: Army | null;
}

export type NumberPurpose = 'combat' | 'event' | 'effect';

export interface Modifier {
  units: string[];
  op: 'add' | 'set' | 'mul';
  value: number;
  stat: 'AS' | 'DS' | 'CS';
  reason: string;
}

export type BattleStep = 'strategy' | 'event-number' | 'event' | 'resume' | 'original' | 'finish';

export interface Battle {
  spread: number;
  attacker: Army;
  defender: Army;
  step: BattleStep;
  strategyAsked: boolean;
  /** A number is being generated from both players' secret choices. */
  call: { purpose: NumberPurpose; commits: { azuthkan: number | null; celestine: number | null } } | null;
  /** The last number generated, until a rule uses it. */
  number: { purpose: NumberPurpose; value: number; event: boolean } | null;
  originalNumber: number | null;
  eventIndex: number | null;
  effectStage: number;
  modifiers: Modifier[];
  halved: boolean;
  berserkers: string[];
  /** Magic Bridge: attacking units that do not attack now. */
  withheld: string[];
  bridge: string[];
  picks: { seat: Army; unit: string }[];
  engaged: boolean;
}

export type Pending =
  | { kind: 'SETUP'; seat: Army }
  | { kind: 'MOVE'; seat: Army }
  | { kind: 'STRATEGY'; seat: Army }
  | { kind: 'COMMIT_NUMBER'; seat: Army }
  | { kind: 'ALLOCATE_DAMAGE'; seat: Army; hits: number; cause: string }
  | { kind: 'CHOOSE_UNIT'; seat: Army; purpose: ChoicePurpose; options: string[]; optional: boolean }
  | { kind: 'MAGIC_BRIDGE'; seat: Army }
  | { kind: 'RETREAT'; seat: Army; unit: string; options: number[]; cause: string }
  | { kind: 'DESTROY_UNIT'; seat: Army; spread: number; aerial: boolean };

export type ChoicePurpose = 'reserve' | 'accidentalFall' | 'assassination' | 'bribery';

export type Phase = 'setup' | 'movement' | 'battles' | 'turnEnd' | 'turnStart' | 'over';

export interface WarchonOptions {
  numbers: 'players' | 'server';
  turnLimit?: number;
  roster?: UnitType[];
  spreads?: Spread[];
  setupSpreads?: { azuthkan: number[]; celestine: number[] };
}

export interface WarchonState {
  numbers: 'players' | 'server';
  turnLimit: number | null;
  spreads: Spread[];
  types: Record<string, UnitType>;
  setupSpreads: { azuthkan: number[]; celestine: number[] };
  /** Roster copies not yet placed, per army (private keys). */
  unplaced: { azuthkan: string[]; celestine: string[] };
  units: Record<string, Unit>;
  phase: Phase;
  setupArmy: Army | null;
  turn: number;
  active: Army;
  moving: string | null;
  /** Spreads the active army has already moved a unit out of battle from this turn. */
  leftBattle: number[];
  /** Spreads with an Engaged result, and the turn it was fought. */
  engaged: { spread: number; turn: number }[];
  /** Spreads units were forced into this turn (retreats): Capacity is checked there. */
  forcedInto: number[];
  /** Spreads where a Random Event happened this turn. */
  eventSpreads: number[];
  lastBattle: number;
  battle: Battle | null;
  pending: Pending[];
  /** Numbers generated so far (secret choices of generation n stay hidden until it completes). */
  generations: number;
  result: { winners: string[]; reason: string } | null;
}

export type WarchonCommand =
  | { type: 'placeUnit'; unit: string; spread: number }
  | { type: 'moveUnit'; unit: string; to: number }
  | { type: 'endMovement' }
  | { type: 'goBerserk'; unit: string }
  | { type: 'endStrategy' }
  | { type: 'commitNumber'; number: number }
  | { type: 'assignHit'; unit: string }
  | { type: 'chooseUnit'; unit: string }
  | { type: 'passChoice' }
  | { type: 'commitToBridge'; unit: string }
  | { type: 'crossBridge' }
  | { type: 'retreatUnit'; unit: string; to: number }
  | { type: 'destroyUnit'; unit: string };

export interface RevealedUnit {
  id: string;
  army: Army;
  key: string;
  type: string;
  name: string;
}

export type WarchonEvent =
  | { type: 'GameSetUp'; numbers: 'players' | 'server'; turnLimit: number | null }
  | { type: 'UnitPlaced'; army: Army; marker: string; spread: number; unit: string | null; unitType: string | null }
  | { type: 'SetupFinished'; army: Army }
  | { type: 'TurnBegan'; turn: number; army: Army }
  | { type: 'UnitShifted'; unit: string }
  /** `moves`: the Movement spent (null: hidden from this viewer; absent in older games: 1). */
  | { type: 'UnitMoved'; army: Army; unit: string; from: number; to: number; moves?: number | null; stopped: boolean; leftBattle: boolean }
  | { type: 'MovementEnded'; army: Army }
  | { type: 'BattleBegan'; spread: number; attacker: Army; defender: Army; units: RevealedUnit[] }
  | { type: 'StrategyRoundBegan'; spread: number; armies: Army[] }
  | { type: 'BerserkDeclared'; spread: number; unit: string; multiplier: number }
  | { type: 'StrategyEnded'; army: Army }
  | { type: 'NumberCalled'; spread: number; purpose: NumberPurpose; generation: number }
  | { type: 'NumberCommitted'; army: Army; generation: number; number: number | null }
  | {
      type: 'NumberGenerated';
      spread: number;
      purpose: NumberPurpose;
      by: 'players' | 'server';
      attackerNumber: number;
      defenderNumber: number;
      number: number;
      event: boolean;
    }
  | { type: 'RandomEventTriggered'; spread: number; number: number }
  | { type: 'RandomEventDrawn'; spread: number; number: number; name: string }
  | { type: 'EventResolved'; spread: number; endsCombat: boolean; useOriginalNumber: boolean }
  | {
      type: 'CombatResolved';
      spread: number;
      attackTotal: number;
      defenseTotal: number;
      difference: number;
      column: string;
      number: number;
      row: number;
      result: string;
    }
  | { type: 'CombatEnded'; spread: number; reason: string }
  | { type: 'HitsToAssign'; spread: number; hits: { azuthkan: number; celestine: number }; cause: string }
  | { type: 'HitAssigned'; army: Army; unit: string; hitsTaken: number; destroyed: boolean }
  | { type: 'UnitHit'; unit: string; cause: string; hitsTaken: number; destroyed: boolean }
  | { type: 'UnitDestroyed'; unit: string; cause: string }
  | { type: 'Engaged'; spread: number }
  | { type: 'CSModified'; spread: number; units: string[]; op: 'add' | 'set' | 'mul'; value: number; stat: 'AS' | 'DS' | 'CS'; reason: string }
  | { type: 'CSHalved'; spread: number }
  | { type: 'ChoicesOffered'; spread: number; purpose: ChoicePurpose; choices: { seat: Army; options: string[]; optional: boolean }[] }
  | { type: 'UnitChosen'; seat: Army; purpose: ChoicePurpose; unit: string }
  | { type: 'ChoicePassed'; seat: Army; purpose: ChoicePurpose }
  | { type: 'ReserveJoined'; spread: number; unit: RevealedUnit; from: number }
  | { type: 'ElementalJoined'; spread: number; army: Army; unit: string }
  | { type: 'UnitBribed'; spread: number; unit: string; fightsFor: Army }
  | { type: 'BridgeOffered'; spread: number; army: Army }
  | { type: 'UnitCommittedToBridge'; unit: string }
  | { type: 'BridgeCrossed'; spread: number; committed: string[] }
  | { type: 'RiversFury'; picks: { army: Army; roll: number; unit: string }[] }
  | { type: 'RetreatsOrdered'; cause: string; retreats: { unit: string; seat: Army; options: number[] }[] }
  | { type: 'UnitRetreated'; unit: string; from: number; to: number }
  | { type: 'CapacityExceeded'; army: Army; spread: number; aerial: boolean | null; capacity: number }
  | { type: 'BattleEnded'; spread: number }
  | { type: 'TurnEnded'; turn: number; army: Army }
  | { type: 'GameEnded'; winners: Army[]; reason: string };
