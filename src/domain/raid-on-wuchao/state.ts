/**
 * The game state and the questions the rules ask about it (who is where, who controls
 * what, how many movement points are left). Plain JSON only.
 */
import type { SetupInput } from '../kernel/index.ts';
import { enemyOf, ROUNDS, type Side, type TokenDef, type WuchaoMap } from './data.ts';
import { scenario, type WuchaoOptions } from './options.ts';

/** The phases of §3 Sequence of Play, plus setup and the end. */
export type Phase = 'setup' | 'caoMovement' | 'caoCombat' | 'yuanMovement' | 'yuanCombat' | 'victoryCheck' | 'over';

export interface UnitState {
  id: string;
  side: Side;
  /** null before setup placement and once destroyed. */
  space: string | null;
  /** Flipped to the reverse (blood-splatter) side after 1 damage (§5). */
  reduced: boolean;
  destroyed: boolean;
}

/** One die of a combat: a variable-attack unit's own 1D6 (die = its id), or the combat's 1D6 (die = "combat"). */
export interface CombatDie {
  die: string;
  roll: number | null;
}

export interface CombatState {
  space: string;
  attackerSide: Side;
  attackers: string[];
  defenders: string[];
  /** Best single defense plus terrain (§8 Defender). */
  defense: number;
  terrainBonus: number;
  dice: CombatDie[];
  /** The die the Cao player may reroll with a Xu You token now (§10), or null. */
  rerolling: string | null;
  attackTotal: number | null;
  /** Damage to allocate (capped at what the defenders can absorb), once resolved. */
  damage: number | null;
  allocated: boolean;
}

export interface WuchaoState {
  map: WuchaoMap;
  tokens: TokenDef[];
  rounds: number;
  round: number;
  phase: Phase;
  units: Record<string, UnitState>;
  /** Which side controls each space (§9), null if nobody yet. */
  control: Record<string, Side | null>;
  /** Path of every unit moved in the current movement phase: [start, ..., where it is]. */
  paths: Record<string, string[]>;
  /** Enemy-occupied spaces entered this movement phase, in the order first entered. */
  attacked: string[];
  /** The side's movement has ended and its stacking limit is being enforced (§6). */
  stacking: boolean;
  /** Combats still to resolve in this combat phase, in order. */
  combats: string[];
  combat: CombatState | null;
  /** Unused Xu You tokens held by the Cao player (§10). */
  xuYou: number;
  /** §7/§10 Raid on Wuchao: the granaries have lost their +2 for the rest of the game. */
  granariesRaided: boolean;
  result: { winners: string[]; reason: string } | null;
}

export function initialState(input: SetupInput<WuchaoOptions>): WuchaoState {
  const { map, tokens, xuYouTokens } = scenario(input.options);
  const units: Record<string, UnitState> = {};
  for (const t of tokens) units[t.id] = { id: t.id, side: t.side, space: null, reduced: false, destroyed: false };
  return {
    map,
    tokens,
    rounds: ROUNDS,
    round: 0,
    phase: 'setup',
    units,
    control: Object.fromEntries(map.spaces.map((s) => [s, null])),
    paths: {},
    attacked: [],
    stacking: false,
    combats: [],
    combat: null,
    xuYou: xuYouTokens,
    granariesRaided: false,
    result: null,
  };
}

/** Each token sheet's tokens by id, once per sheet: every state of a game shares its sheet. */
const sheets = new WeakMap<readonly TokenDef[], Map<string, TokenDef>>();

/** The token `id` names, if any (`id` may come from a player's command). */
export function findToken(state: WuchaoState, id: string): TokenDef | undefined {
  let byId = sheets.get(state.tokens);
  if (!byId) sheets.set(state.tokens, (byId = new Map(state.tokens.map((t) => [t.id, t]))));
  return byId.get(id);
}

export function token(state: WuchaoState, id: string): TokenDef {
  return findToken(state, id)!;
}

export function unitName(state: WuchaoState, id: string): string {
  return findToken(state, id)?.name ?? id;
}

export function isSpace(state: WuchaoState, space: string): boolean {
  return state.map.spaces.includes(space);
}

/** Each map's connections, worked out once per map: the rules ask them many times a command. */
const connections = new WeakMap<WuchaoMap, Map<string, readonly string[]>>();
const NONE: readonly string[] = Object.freeze([]);

/** The spaces connected to `space`, in the map's order (shared and frozen: copy before changing). */
export function neighbours(state: WuchaoState, space: string): readonly string[] {
  let bySpace = connections.get(state.map);
  if (!bySpace) {
    bySpace = new Map();
    for (const sp of state.map.spaces) bySpace.set(sp, Object.freeze(connectedTo(state.map, sp)));
    connections.set(state.map, bySpace);
  }
  return bySpace.get(space) ?? NONE;
}

function connectedTo(map: WuchaoMap, space: string): string[] {
  const out: string[] = [];
  for (const [a, b] of map.edges) {
    if (a === space && !out.includes(b)) out.push(b);
    else if (b === space && !out.includes(a)) out.push(a);
  }
  return map.spaces.filter((s) => out.includes(s));
}

export function adjacent(state: WuchaoState, a: string, b: string): boolean {
  return state.map.edges.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
}

/** On the map (placed, not destroyed) and of `side`, if given. */
function standing(u: UnitState, side?: Side): boolean {
  return u.space !== null && !u.destroyed && (side === undefined || u.side === side);
}

// The four below walk the tokens once each, without lists in between: the rules ask them
// many times a command.

/** Units on the map, in token-sheet order. */
export function unitsOnMap(state: WuchaoState, side?: Side): string[] {
  const out: string[] = [];
  for (const t of state.tokens) if (standing(state.units[t.id]!, side)) out.push(t.id);
  return out;
}

/** Units in `space` (of `side`, if given), in token-sheet order. */
export function unitsIn(state: WuchaoState, space: string, side?: Side): string[] {
  const out: string[] = [];
  for (const t of state.tokens) if (state.units[t.id]!.space === space && standing(state.units[t.id]!, side)) out.push(t.id);
  return out;
}

/** The spaces holding units of `side` (placed, not destroyed). */
export function spacesHeld(state: WuchaoState, side: Side): Set<string> {
  const out = new Set<string>();
  for (const t of state.tokens) if (standing(state.units[t.id]!, side)) out.add(state.units[t.id]!.space!);
  return out;
}

export function hasEnemy(state: WuchaoState, space: string, side: Side): boolean {
  const enemy = enemyOf(side);
  return state.tokens.some((t) => state.units[t.id]!.space === space && standing(state.units[t.id]!, enemy));
}

/** The side whose movement or combat phase it is (null in setup and at the end). */
export function activeSide(state: WuchaoState): Side | null {
  switch (state.phase) {
    case 'caoMovement':
    case 'caoCombat':
      return 'cao';
    case 'yuanMovement':
    case 'yuanCombat':
      return 'yuan';
    default:
      return null;
  }
}

/** A round's phases after setup, in order (§3). */
const PHASE_ORDER: readonly Phase[] = ['caoMovement', 'caoCombat', 'yuanMovement', 'yuanCombat', 'victoryCheck', 'over'];

/** Whether `side` has had its movement this round (its movement phase has ended, §3). */
function movementOver(state: WuchaoState, side: Side): boolean {
  const own: Phase = side === 'cao' ? 'caoMovement' : 'yuanMovement';
  const at = PHASE_ORDER.indexOf(state.phase);
  if (at < 0) return false; // setup
  return at > PHASE_ORDER.indexOf(own) || (state.phase === own && state.stacking);
}

/**
 * Movement points a unit may still use this round. §6: each point moves the unit one
 * space, and unused points are not saved, so a side's units have none left once its
 * movement has ended; §8: a unit that entered an enemy-occupied space is halted (none
 * left), and attackers that occupy a space "cannot move further that round".
 * `stopped`: whether the unit has stopped (hasStopped), when the caller knows it already.
 */
export function movementLeft(state: WuchaoState, id: string, stopped?: boolean): number {
  const u = state.units[id]!;
  if (u.destroyed) return 0;
  if ((stopped ?? hasStopped(state, id)) || movementOver(state, u.side)) return 0;
  const path = state.paths[id];
  return token(state, id).move - (path ? path.length - 1 : 0);
}

/** A unit that entered an enemy-occupied space has stopped (§8). */
export function hasStopped(state: WuchaoState, id: string): boolean {
  const u = state.units[id]!;
  return u.space !== null && hasEnemy(state, u.space, u.side);
}

/** Damage a unit can still absorb: 2 at full strength, 1 reduced (§5 Taking Damage). */
export function stepsLeft(state: WuchaoState, id: string): number {
  const u = state.units[id]!;
  return u.destroyed ? 0 : u.reduced ? 1 : 2;
}

export function specialUnit(state: WuchaoState): string | null {
  return state.tokens.find((t) => t.special)?.id ?? null;
}
