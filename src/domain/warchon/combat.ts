/**
 * Combat: Combat Strength, the battle differential's column, the RNG and the Combat
 * Results Table ("Let's Fight!").
 */
import { COLUMNS } from './data.ts';
import { hasTrait, lineOf, spreadOf, traitsOf, typeOf, unitsIn } from './battlefield.ts';
import type { Army, Battle, Spread, Unit, WarchonState } from './types.ts';

/** The units fighting for an army in this battle (a bribed unit fights for the army that bribed it). */
export function battleArmy(state: WarchonState, battle: Battle, army: Army): Unit[] {
  return unitsIn(state, battle.spread).filter((u) => (u.fightsFor ?? u.army) === army);
}

/** The CS a unit brings to this battle: AS when attacking, DS when defending, every modifier in order. */
export function combatStrength(state: WarchonState, battle: Battle, unit: Unit, role: 'attack' | 'defend'): number {
  const spread = spreadOf(state, battle.spread);
  const line = lineOf(state, unit);
  const type = typeOf(state, unit);
  const traits = traitsOf(state, unit);
  let cs = role === 'attack' ? line.as : line.ds;
  // Location special rules ("All Construct units gain +1 CS", Goblin Assassins in Xetti Bishum, Size 3+ in Kier-Zhadd).
  for (const bonus of spread.special.csBonuses) {
    if (bonus.trait && !traits.includes(bonus.trait)) continue;
    if (bonus.name && type.name !== bonus.name) continue;
    if (bonus.minSize !== undefined && line.size < bonus.minSize) continue;
    cs += bonus.cs;
  }
  // Special abilities tied to terrain (Baphite Swarm: -1 CS in Frigid locations); a Frigid unit is unhindered by the cold.
  for (const m of type.terrainModifiers) {
    if (!spread.terrain.includes(m.terrain)) continue;
    if (m.terrain === 'Frigid' && m.cs < 0 && traits.includes('Frigid')) continue;
    cs += m.cs;
  }
  // This turn's modifiers, in the order they happened (Berserk doubles what is there when declared).
  for (const m of battle.modifiers) {
    if (!m.units.includes(unit.id)) continue;
    if (m.stat === 'AS' && role !== 'attack') continue;
    if (m.stat === 'DS' && role !== 'defend') continue;
    if (m.op === 'add') cs += m.value;
    else if (m.op === 'mul') cs *= m.value;
    else cs = m.value;
  }
  return Math.max(0, cs);
}

/** Effective DS whatever the side (Cull the Weak reads "the least DS"). */
export function effectiveDs(state: WarchonState, battle: Battle, unit: Unit): number {
  return combatStrength(state, battle, unit, 'defend');
}

export function battleTotals(state: WarchonState, battle: Battle): { attackTotal: number; defenseTotal: number } {
  const attackers = battleArmy(state, battle, battle.attacker).filter((u) => !battle.withheld.includes(u.id));
  const defenders = battleArmy(state, battle, battle.defender);
  let attackTotal = attackers.reduce((s, u) => s + combatStrength(state, battle, u, 'attack'), 0);
  let defenseTotal = defenders.reduce((s, u) => s + combatStrength(state, battle, u, 'defend'), 0);
  // Ramping Water Elemental on a 5: "all armies are at halved CS this turn" (rounded down).
  if (battle.halved) {
    attackTotal = Math.floor(attackTotal / 2);
    defenseTotal = Math.floor(defenseTotal / 2);
  }
  return { attackTotal, defenseTotal };
}

/** "Use +5 or -5 columns for gaps greater than 5." */
export function columnFor(difference: number): number {
  if (difference <= -5) return 0;
  if (difference === -4) return 1;
  if (difference <= -2) return 2;
  if (difference <= 1) return 3;
  if (difference <= 3) return 4;
  if (difference === 4) return 5;
  return 6;
}

export function columnName(index: number): string {
  return COLUMNS[index]!;
}

/** The RNG: the attacker's number picks the column, the defender's the row. */
export function readRng(spread: Spread, attackerNumber: number, defenderNumber: number): { number: number; event: boolean } {
  const cell = spread.rng[defenderNumber - 1]![attackerNumber - 1]!;
  return { number: Number.parseInt(cell, 10), event: cell.endsWith('E') };
}

/** Ruling: the tables print rows 1 to 3 only; a number n above 3 reads row n - 3. */
export function crtRow(number: number): number {
  return number > 3 ? number - 3 : number;
}

export function readCrt(spread: Spread, number: number, column: number): string {
  return spread.crt[crtRow(number) - 1]![column]!;
}

export type CombatResult =
  | { kind: 'hits'; attacker: number; defender: number }
  | { kind: 'AE' }
  | { kind: 'DE' }
  | { kind: 'Eg' }
  | { kind: 'So' };

export function parseResult(text: string): CombatResult {
  if (text === 'AE' || text === 'DE' || text === 'Eg' || text === 'So') return { kind: text };
  const m = /^(?:A(\d+))?(?:D(\d+))?$/.exec(text);
  if (!m) throw new Error(`unreadable combat result ${text}`);
  return { kind: 'hits', attacker: Number(m[1] ?? 0), defender: Number(m[2] ?? 0) };
}

/** "Controlling army": the army in the spread before the battle began — the defender, who cannot have moved in this turn (ruling). */
export function controllingArmy(battle: Battle): Army {
  return battle.defender;
}

export function berserkCandidates(state: WarchonState, battle: Battle, army: Army): Unit[] {
  return battleArmy(state, battle, army).filter((u) => u.army === army && hasTrait(state, u, 'Berserk') && !battle.berserkers.includes(u.id));
}
