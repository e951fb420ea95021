/**
 * Random Number Generator: both players secretly choose 1-5 ("fingers"), the attacker's
 * number picks the column and the defender's the row of the spread's RNG table. Neither
 * sees the other's choice before both have chosen. A game created with numbers: "server"
 * has the server draw both choices instead.
 */
import type { Random } from '../kernel/index.ts';
import { spreadOf } from './battlefield.ts';
import { readRng } from './combat.ts';
import type { Run } from './run.ts';
import type { NumberPurpose } from './types.ts';

export function callNumber(run: Run, random: Random, purpose: NumberPurpose): void {
  const s = run.state;
  const battle = s.battle!;
  if (s.numbers === 'server') {
    const attackerNumber = random.die(5);
    const defenderNumber = random.die(5);
    const r = readRng(spreadOf(s, battle.spread), attackerNumber, defenderNumber);
    run.emit({ type: 'NumberGenerated', spread: battle.spread, purpose, by: 'server', attackerNumber, defenderNumber, number: r.number, event: r.event });
  } else {
    run.emit({ type: 'NumberCalled', spread: battle.spread, purpose, generation: s.generations });
  }
}

/** Both secret numbers are in: read the table. */
export function generateFromCommits(run: Run): void {
  const s = run.state;
  const battle = s.battle!;
  const call = battle.call!;
  const attackerNumber = call.commits[battle.attacker]!;
  const defenderNumber = call.commits[battle.defender]!;
  const r = readRng(spreadOf(s, battle.spread), attackerNumber, defenderNumber);
  run.emit({
    type: 'NumberGenerated',
    spread: battle.spread,
    purpose: call.purpose,
    by: 'players',
    attackerNumber,
    defenderNumber,
    number: r.number,
    event: r.event,
  });
}
