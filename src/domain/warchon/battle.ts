/**
 * A battle, from its first number to its end: Strategy Round (Berserk), numbers, the
 * Events Table, the Combat Results Table, then the post-combat effects. Battles happen
 * after all movement, on the spreads both armies share, in numerical order.
 */
import type { Random } from '../kernel/index.ts';
import { spreadOf, unitsIn } from './battlefield.ts';
import { battleArmy, battleTotals, berserkCandidates, columnFor, columnName, crtRow, parseResult, readCrt } from './combat.ts';
import { callNumber, generateFromCommits } from './numbers.ts';
import { revealed, runEffect } from './random-events.ts';
import type { Run } from './run.ts';
import type { WarchonState } from './types.ts';
import { ARMIES, opponent } from './types.ts';

export function beginBattle(run: Run, spread: number): void {
  const s = run.state;
  const attacker = s.active;
  // Every unit in the battle has now fought: its identity is revealed.
  run.emit({ type: 'BattleBegan', spread, attacker, defender: opponent(attacker), units: unitsIn(s, spread).map((u) => revealed(s, u)) });
}

/** Cross-index the number and the column on the Combat Results Table, then apply the result. */
export function resolveCombat(run: Run, number: number): void {
  const s = run.state;
  const battle = s.battle!;
  const spread = spreadOf(s, battle.spread);
  const { attackTotal, defenseTotal } = battleTotals(s, battle);
  const difference = attackTotal - defenseTotal;
  const column = columnFor(difference);
  const result = readCrt(spread, number, column);
  run.emit({
    type: 'CombatResolved',
    spread: battle.spread,
    attackTotal,
    defenseTotal,
    difference,
    column: columnName(column),
    number,
    row: crtRow(number),
    result,
  });
  const r = parseResult(result);
  switch (r.kind) {
    case 'hits': {
      const hits = { azuthkan: 0, celestine: 0 };
      hits[battle.attacker] = r.attacker;
      hits[battle.defender] = r.defender;
      run.emit({ type: 'HitsToAssign', spread: battle.spread, hits, cause: result });
      return;
    }
    case 'AE':
    case 'DE': {
      const army = r.kind === 'AE' ? battle.attacker : battle.defender;
      for (const u of battleArmy(s, battle, army)) run.emit({ type: 'UnitDestroyed', unit: u.id, cause: r.kind === 'AE' ? 'Attacker Eliminated' : 'Defender Eliminated' });
      return;
    }
    case 'Eg':
      run.emit({ type: 'Engaged', spread: battle.spread });
      return;
    case 'So':
      return;
  }
}

function bothSidesFight(s: WarchonState): boolean {
  const battle = s.battle!;
  return ARMIES.every((a) => battleArmy(s, battle, a).length > 0);
}

function finishBattle(run: Run): void {
  const s = run.state;
  const battle = s.battle!;
  const spread = spreadOf(s, battle.spread);
  const here = unitsIn(s, battle.spread);
  // Akibatu: units in battle always remain Engaged.
  if (spread.special.alwaysEngaged && !battle.engaged && ARMIES.every((a) => here.some((u) => u.army === a && !u.temporary))) {
    run.emit({ type: 'Engaged', spread: battle.spread });
  }
  // Berserk: "it is automatically destroyed after this battle".
  for (const id of battle.berserkers) if (!run.state.units[id]!.destroyed) run.emit({ type: 'UnitDestroyed', unit: id, cause: 'Berserk' });
  // The Water Elemental joined for this turn only.
  for (const u of unitsIn(run.state, battle.spread)) if (u.temporary) run.emit({ type: 'UnitDestroyed', unit: u.id, cause: 'the Water Elemental returns to the river' });
  run.emit({ type: 'BattleEnded', spread: battle.spread });
}

/** One step of the battle in progress (nothing is awaited). */
export function battleStep(run: Run, random: Random): void {
  const s = run.state;
  const battle = s.battle!;
  if (battle.call) {
    generateFromCommits(run);
    return;
  }
  if (battle.number && battle.number.purpose === 'combat') {
    const spread = spreadOf(s, battle.spread);
    // "Only one Random Event can happen in a location per turn."
    if (battle.number.event && spread.events && !s.eventSpreads.includes(battle.spread)) {
      run.emit({ type: 'RandomEventTriggered', spread: battle.spread, number: battle.number.value });
    } else resolveCombat(run, battle.number.value);
    return;
  }
  if (battle.number && battle.number.purpose === 'event') {
    const entry = spreadOf(s, battle.spread).events![battle.number.value - 1]!;
    run.emit({ type: 'RandomEventDrawn', spread: battle.spread, number: battle.number.value, name: entry.name });
    return;
  }
  switch (battle.step) {
    case 'strategy': {
      if (!battle.strategyAsked) {
        const armies = [battle.attacker, battle.defender].filter((a) => berserkCandidates(s, battle, a).length > 0);
        if (armies.length) {
          run.emit({ type: 'StrategyRoundBegan', spread: battle.spread, armies });
          return;
        }
      }
      callNumber(run, random, 'combat');
      return;
    }
    case 'event-number':
      callNumber(run, random, 'event');
      return;
    case 'event':
      runEffect(run, random);
      return;
    case 'resume':
      // "If the result does not end combat ... recalculate CS and generate a new number."
      if (!bothSidesFight(s)) run.emit({ type: 'CombatEnded', spread: battle.spread, reason: 'one army has no units left in this battle' });
      else callNumber(run, random, 'combat');
      return;
    case 'original':
      resolveCombat(run, battle.originalNumber!);
      return;
    case 'finish':
      finishBattle(run);
      return;
  }
}
