/**
 * §8 Combat. Each enemy-occupied space entered during a movement phase is one combat in
 * the combat phase that follows, all units that entered it attacking together (ruling).
 * Combats are resolved in the order their spaces were first entered ("resolved
 * immediately", §8), so the order needs no choice.
 */
import { enemyOf, STACKING_LIMIT, type Side } from './data.ts';
import type { WuchaoEvent, Withdrawal } from './events.ts';
import { stepsLeft, token, unitName, unitsIn, type CombatState, type WuchaoState } from './state.ts';

/** §7 Terrain: +2 in the granaries and D1, unless the raid has taken the granaries' bonus. */
export function terrainBonus(s: WuchaoState, space: string): number {
  if (s.granariesRaided && s.map.granaries.includes(space)) return 0;
  return s.map.defenseBonus[space] ?? 0;
}

/** §7 / §10 Raid on Wuchao: any Cao attack on a granary in round 2. */
export function raidTriggered(s: WuchaoState, space: string, attackerSide: Side): boolean {
  return attackerSide === 'cao' && s.round === 2 && s.map.granaries.includes(space) && !s.granariesRaided;
}

/** The events that open the combat at `space`: possibly the raid, then the combat itself. */
export function beginCombat(s: WuchaoState, space: string, attackerSide: Side): WuchaoEvent[] {
  const events: WuchaoEvent[] = [];
  // Ruling: the raid takes effect at once, so the attack that triggers it already meets no +2.
  const raid = raidTriggered(s, space, attackerSide);
  if (raid) events.push({ type: 'GranariesRaided', round: s.round, space });
  const attackers = unitsIn(s, space, attackerSide);
  const defenders = unitsIn(s, space, enemyOf(attackerSide));
  // §8 Defender: the Defense Power of a single defending unit, the best one (not cumulative).
  const bestDefense = Math.max(...defenders.map((d) => token(s, d).defense));
  const bonus = raid ? 0 : terrainBonus(s, space);
  // §5 Cao Cao rolls 1D6 for his own Attack Power each time he attacks; then the combat's 1D6.
  const dice = [...attackers.filter((a) => attackOf(s, a) === '1D6'), 'combat'];
  events.push({ type: 'CombatBegan', space, attackerSide, attackers, defenders, bestDefense, terrainBonus: bonus, defense: bestDefense + bonus, dice });
  return events;
}

function attackOf(s: WuchaoState, id: string): number | '1D6' {
  const t = token(s, id);
  return s.units[id]!.reduced ? t.reducedAttack : t.attack;
}

/** §8 Attacker: sum of every attacker's Attack Power plus 1D6 (the Attack Power Total). */
export function attackTotal(s: WuchaoState, c: CombatState): number {
  const roll = (die: string) => c.dice.find((d) => d.die === die)?.roll ?? 0;
  let total = roll('combat');
  for (const a of c.attackers) {
    const v = attackOf(s, a);
    total += v === '1D6' ? roll(a) : v;
  }
  return total;
}

/** What the defenders can absorb: 2 per full-strength unit, 1 per reduced one. */
export function capacity(s: WuchaoState, c: CombatState): number {
  return c.defenders.reduce((n, d) => n + stepsLeft(s, d), 0);
}

/** §8 Damage: the difference between Attack Power Total and Defense Power, capped at what the defenders can absorb (ruling). */
export function resolve(s: WuchaoState, c: CombatState): WuchaoEvent {
  const total = attackTotal(s, c);
  const damage = Math.min(Math.max(0, total - c.defense), capacity(s, c));
  return { type: 'CombatResolved', space: c.space, attackTotal: total, defense: c.defense, damage };
}

/**
 * Every way to allocate exactly `damage` points among the defenders (§8 Damage Allocation):
 * each point flips a full-strength unit or removes a flipped one. Listed in defender order.
 */
export function allocations(s: WuchaoState, c: CombatState): string[][] {
  const damage = c.damage ?? 0;
  const out: string[][] = [];
  const defenders = c.defenders.filter((d) => stepsLeft(s, d) > 0);
  const go = (i: number, left: number, acc: string[]) => {
    if (left === 0) return void out.push(acc);
    if (i >= defenders.length) return;
    const d = defenders[i]!;
    for (let k = Math.min(stepsLeft(s, d), left); k >= 0; k--) go(i + 1, left - k, [...acc, ...Array<string>(k).fill(d)]);
  };
  go(0, damage, []);
  return out;
}

/** The DamageAllocated event for an allocation, or why it is not one. */
export function allocate(s: WuchaoState, units: string[], automatic: boolean): WuchaoEvent | string {
  const c = s.combat!;
  const damage = c.damage ?? 0;
  if (units.length !== damage) {
    return `You must allocate exactly ${damage} damage, no more, no less; you allocated ${units.length}`;
  }
  const count: Record<string, number> = {};
  for (const u of units) {
    if (!c.defenders.includes(u)) return `${unitName(s, u)} is not defending ${c.space}`;
    count[u] = (count[u] ?? 0) + 1;
  }
  for (const [u, n] of Object.entries(count)) {
    if (n > stepsLeft(s, u)) {
      return s.units[u]!.reduced
        ? `${unitName(s, u)} is already reduced: one point removes it, it cannot take ${n}`
        : `${unitName(s, u)} can take at most 2 damage (flip, then remove), not ${n}`;
    }
  }
  // One command per allocation, as legalCommands lists it: the units in defender order.
  const listed = c.defenders.flatMap((d) => Array<string>(count[d] ?? 0).fill(d));
  if (listed.some((u, i) => u !== units[i])) {
    return `Name the units in the order the defenders are listed (${c.defenders.join(', ')}): ${JSON.stringify(listed)}`;
  }
  const flipped: string[] = [];
  const destroyed: string[] = [];
  for (const d of c.defenders) {
    const n = count[d] ?? 0;
    if (n === 0) continue;
    if (n >= stepsLeft(s, d)) destroyed.push(d);
    else flipped.push(d);
  }
  return { type: 'DamageAllocated', space: c.space, units: [...units], flipped, destroyed, automatic };
}

/** §8 Successful Assault: all defenders eliminated. */
export function assaultSucceeded(s: WuchaoState): boolean {
  return unitsIn(s, s.combat!.space, enemyOf(s.combat!.attackerSide)).length === 0;
}

/**
 * §8 Failed Assault: each attacker withdraws one space back along its own path, one more
 * if that would break the stacking limit. Ruling: if neither has room, it goes on back
 * along its path to the first space with room; with none, it is destroyed. Which units
 * go further back (or are lost) depends on who withdraws first: that is the attacking
 * player's choice (as in the stacking limit, §6). Every distinct outcome, as the list of
 * withdrawals in attacker order; the first is the one in token-sheet order.
 */
export function withdrawalPlans(s: WuchaoState): Withdrawal[][] {
  const c = s.combat!;
  const side = c.attackerSide;
  const room: Record<string, number> = {};
  for (const sp of s.map.spaces) room[sp] = STACKING_LIMIT - unitsIn(s, sp, side).length;
  const plans = new Map<string, Withdrawal[]>();
  for (const order of permutations(c.attackers)) {
    const left = { ...room };
    const to: Record<string, string | null> = {};
    for (const a of order) {
      const path = s.paths[a] ?? [c.space];
      to[a] = null;
      for (let i = path.length - 2; i >= 0; i--) {
        if (left[path[i]!]! > 0) {
          to[a] = path[i]!;
          left[path[i]!]! -= 1;
          break;
        }
      }
    }
    const plan = c.attackers.map((unit) => ({ unit, from: c.space, to: to[unit]! }));
    const key = JSON.stringify(plan);
    if (!plans.has(key)) plans.set(key, plan);
  }
  return [...plans.values()];
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));
}

/** The end of a combat: the attackers occupy the space, or withdraw by `plan` (one of withdrawalPlans). */
export function endCombat(s: WuchaoState, plan?: Withdrawal[]): WuchaoEvent {
  const c = s.combat!;
  if (assaultSucceeded(s)) return { type: 'AssaultSucceeded', space: c.space, side: c.attackerSide, attackers: [...c.attackers] };
  return { type: 'AssaultFailed', space: c.space, side: c.attackerSide, withdrawals: plan ?? withdrawalPlans(s)[0]! };
}

/** The AssaultFailed event for the attacking player's chosen withdrawals, or why they are not a legal outcome. */
export function withdraw(s: WuchaoState, withdrawals: Withdrawal[]): WuchaoEvent | string {
  const plans = withdrawalPlans(s);
  const key = JSON.stringify(withdrawals.map((w) => ({ unit: w.unit, from: w.from, to: w.to })));
  const plan = plans.find((p) => JSON.stringify(p) === key);
  if (!plan) {
    const options = plans.map((p) => p.map((w) => `${unitName(s, w.unit)} to ${w.to ?? 'destroyed'}`).join(', ')).join('; or ');
    return `Each attacker withdraws to the first space back along its path with room; the withdrawals can be: ${options}`;
  }
  return endCombat(s, plan);
}

export function withdrawalPrompt(s: WuchaoState): string {
  const c = s.combat!;
  return `Failed assault on ${c.space}: not all your attackers have room one space back (stacking limit ${STACKING_LIMIT}); choose which withdraw further`;
}

export function allocationPrompt(s: WuchaoState): string {
  const c = s.combat!;
  return `Allocate exactly ${c.damage} damage among your units in ${c.space} (attack ${c.attackTotal} against defense ${c.defense})`;
}
