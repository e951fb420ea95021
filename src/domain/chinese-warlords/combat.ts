/**
 * COMBAT: "Units may attack enemy stacks in range. A unit may attack once per turn. Carried
 * units may attack." Resolved on the COMBAT RESOLUTION TABLE with 1D10.
 */
import type { Random } from '../kernel/index.ts';
import { COMBAT_RESOLUTION_TABLE, CRT_COLUMNS, TERRAIN, UNIT_TYPES, type CrtColumn } from './data.ts';
import type { WarlordsEvent } from './events.ts';
import { axial, axialDistance, distance, neighbours, terrainAt } from './map.ts';
import { canStep } from './movement.ts';
import { attackedLastTurn, liveStrongholds, passengersOf, unitsAt, type Unit, type WarlordsState } from './state.ts';

/**
 * Force ratio column, rounded in the defender's favour to the printed columns (ruling):
 * attacker ahead: floor(attack / defence) : 1; defender ahead: 1 : ceil(defence / attack).
 */
export function forceRatioColumn(attack: number, defence: number): CrtColumn {
  if (attack >= defence) {
    const r = Math.floor(attack / defence);
    return r >= 5 ? '5+:1' : r === 4 ? '4:1' : r === 3 ? '3:1' : r === 2 ? '2:1' : '1:1';
  }
  const r = Math.ceil(defence / attack);
  return r === 2 ? '1:2' : '1:3+';
}

/** The table lookup: 1D10 where the die's 0 (10) is the last row. */
export function combatResult(column: CrtColumn, roll: number) {
  return COMBAT_RESOLUTION_TABLE[roll - 1]![CRT_COLUMNS.indexOf(column)]!;
}

export function force(units: Unit[]): number {
  return units.reduce((sum, u) => sum + UNIT_TYPES[u.type].force, 0);
}

/** "Defense values are added to the defending stacks force value." */
export function terrainDefense(s: WarlordsState, hex: string): number {
  return TERRAIN[terrainAt(s.map, hex)!].defense;
}

/**
 * "A stack cannot attack unless it contains a warlord or lieutenant or it was attacked last
 * turn": attacked in turn T, a leaderless stack may attack in turn T+1, not back in turn T (ruling).
 */
export function stackMayAttack(s: WarlordsState, hex: string): boolean {
  const stack = unitsAt(s, hex);
  return stack.some((u) => u.type === 'warlord' || u.type === 'lieutenant' || attackedLastTurn(u, s.turn));
}

/**
 * The stack has made its attack this turn. Its units out of range of that target lost their
 * attack with it. (Only a retreat can bring units together in a combat phase, and a player's
 * units retreat only in other players' phases.)
 */
export function stackAttacked(s: WarlordsState, hex: string): boolean {
  return unitsAt(s, hex).some((u) => u.attackedTurn === s.turn);
}

/** Units of the stack in `hex` that can fire at `target`: in range and not yet attacked this turn. */
export function attackersFrom(s: WarlordsState, hex: string, target: string): Unit[] {
  const d = distance(hex, target);
  return unitsAt(s, hex).filter((u) => u.attackedTurn !== s.turn && UNIT_TYPES[u.type].range >= d);
}

export function attackRefusal(s: WarlordsState, seat: string, stack: string, target: string): string | null {
  const own = unitsAt(s, stack);
  if (!own.length || own[0]!.owner !== seat) return `You have no stack in ${stack}`;
  const enemy = unitsAt(s, target);
  if (!enemy.length || enemy[0]!.owner === seat) return `There is no enemy stack in ${target}`;
  if (s.attack && s.attack.target !== target) return `Resolve the attack on ${s.attack.target} first`;
  if (s.attack?.stacks.includes(stack)) return `The stack in ${stack} already takes part in this attack`;
  // "Attacks by units in the same stack must be combined": one attack per stack and turn (ruling).
  if (stackAttacked(s, stack)) return `The stack in ${stack} has already attacked this turn`;
  if (!stackMayAttack(s, stack)) return `The stack in ${stack} cannot attack: it has no Warlord or Lieutenant and was not attacked last turn`;
  if (!attackersFrom(s, stack, target).length) return `No unit in ${stack} can attack ${target}: out of range (${distance(stack, target)}) or already attacked this turn`;
  return null;
}

export function attackCommands(s: WarlordsState, seat: string) {
  const out: { type: 'attack'; stack: string; target: string }[] = [];
  const mine = [...new Set(s.units.filter((u) => u.owner === seat).map((u) => u.hex))].sort();
  const targets = s.attack ? [s.attack.target] : [...new Set(s.units.filter((u) => u.owner !== seat).map((u) => u.hex))].sort();
  const reach = new Map(mine.map((h) => [h, Math.max(...unitsAt(s, h).map((u) => UNIT_TYPES[u.type].range))]));
  // Every stack against every enemy stack: each hex's coordinates worked out once.
  const at = new Map([...mine, ...targets].map((h) => [h, axial(h)]));
  for (const stack of mine) {
    for (const target of targets) {
      if (axialDistance(at.get(stack)!, at.get(target)!) > reach.get(stack)!) continue;
      if (!attackRefusal(s, seat, stack, target)) out.push({ type: 'attack', stack, target });
    }
  }
  return out;
}

export function resolveAttack(s: WarlordsState, random: Random): WarlordsEvent[] {
  const a = s.attack!;
  const attackers = s.units.filter((u) => a.units.includes(u.id));
  const defenders = unitsAt(s, a.target);
  const attackForce = force(attackers);
  const defenderForce = force(defenders);
  const defense = terrainDefense(s, a.target);
  const column = forceRatioColumn(attackForce, defenderForce + defense);
  const roll = random.die(10);
  const result = combatResult(column, roll);
  const events: WarlordsEvent[] = [
    {
      type: 'CombatResolved',
      attacker: a.attacker,
      defender: a.defender,
      target: a.target,
      stacks: a.stacks,
      attackers: a.units,
      defenders: defenders.map((u) => u.id),
      attackForce,
      defenderForce,
      terrainDefense: defense,
      column,
      roll,
      result,
    },
  ];
  // "A = All units in stack killed."
  if (result === 'A') for (const u of passengersFirst(defenders)) events.push({ type: 'UnitLost', unit: u.id, unitType: u.type, seat: u.owner, hex: u.hex, cause: 'combat' });
  return events;
}

/**
 * Losing a unit: "Carried units are destroyed if the unit carrying them is destroyed." The
 * passengers' events come first, so that no state ever holds a passenger without its carrier.
 */
export function loseUnit(s: WarlordsState, u: Unit, cause: 'upkeep' | 'combat'): WarlordsEvent[] {
  return [
    ...passengersOf(s, u.id).map((p): WarlordsEvent => ({ type: 'UnitLost', unit: p.id, unitType: p.type, seat: p.owner, hex: p.hex, cause: 'carrier' })),
    { type: 'UnitLost', unit: u.id, unitType: u.type, seat: u.owner, hex: u.hex, cause },
  ];
}

/** Passengers before their carriers (see loseUnit). */
export function passengersFirst(units: Unit[]): Unit[] {
  return [...units].sort((a, b) => Number(a.carriedBy === null) - Number(b.carriedBy === null));
}

export function stackRetreated(s: WarlordsState, hex: string): boolean {
  return unitsAt(s, hex).some((u) => u.retreatedTurn === s.turn);
}

/**
 * Where the attacked stack may retreat (ruling): an adjacent hex free of enemy units that
 * every unit not carried may enter; not another player's stronghold.
 */
export function retreatHexes(s: WarlordsState, hex: string): string[] {
  const stack = unitsAt(s, hex);
  if (!stack.length || stackRetreated(s, hex)) return [];
  const owner = stack[0]!.owner;
  const strongholds = liveStrongholds(s);
  return neighbours(s.map, hex)
    .filter((n) => !s.units.some((u) => u.hex === n && u.owner !== owner))
    .filter((n) => !strongholds[n] || strongholds[n] === owner)
    // A retreat is a step: a boat in a village retreats only onto water (ruling).
    .filter((n) => stack.filter((u) => !u.carriedBy).every((u) => canStep(s.map, hex, n, UNIT_TYPES[u.type].mobility)))
    .sort();
}

/** What the defender may do now: choose losses, retreat, or lose a unit instead of retreating. */
export function defenseOptions(s: WarlordsState): { lose: string[]; retreat: string[] } {
  const d = s.defense;
  if (!d) return { lose: [], retreat: [] };
  const stack = unitsAt(s, d.hex).map((u) => u.id);
  if (d.losses > 0) return { lose: stack, retreat: [] };
  const retreat = retreatHexes(s, d.hex);
  if (d.then === 'retreatOrLose') return { lose: stack, retreat };
  if (d.then === 'retreat') return retreat.length ? { lose: [], retreat } : { lose: stack, retreat: [] };
  return { lose: [], retreat: [] };
}
