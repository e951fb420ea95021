/**
 * The mail notation of Raid on Wuchao (docs/rules/raid-on-wuchao.md, "Mail notation"):
 * one short line per command, read from the seat's view (the board is open to all).
 */
import { idVerbs, plainVerb, readIds, verbs, type IdLookup, type Notation } from '../kernel/index.ts';
import type { WuchaoCommand } from './commands.ts';

/** The parts of view.ts's view the notation reads. */
interface UnitSeen {
  id: string;
  name: string;
  side: string;
  space: string | null;
  state: 'full' | 'reduced' | 'destroyed';
}
interface WuchaoView {
  round: number | null;
  rounds: number;
  phase: string;
  spaces: { id: string; control: string | null }[];
  units: UnitSeen[];
  xuYouTokens: number;
  granariesRaided: boolean;
  combat: { space: string; attackerSide: string; attackers: string[]; defenders: string[]; attackTotal: number | null; defense: number; damage: number | null } | null;
  result: { winners: string[]; reason: string } | null;
}

const SIDES: Record<string, string> = { cao: 'Cao', yuan: 'Yuan' };
const name = (v: WuchaoView, id: string) => v.units.find((u) => u.id === id)?.name ?? id;
const spaceOf = (v: WuchaoView, id: string) => v.units.find((u) => u.id === id)?.space ?? '?';

const ids: IdLookup<WuchaoView> = (v, kind) =>
  kind === 'unit'
    ? { ids: v.units.map((u) => u.id), what: 'unit' }
    : { ids: [...v.spaces.map((s) => s.id), ...(kind === 'space-or-destroyed' ? ['destroyed'] : [])], what: kind === 'space' ? 'space' : 'space (or "destroyed")' };
const verb = idVerbs(ids);
const read = (v: WuchaoView, words: string[], kinds: string[]) => readIds(ids, v, '', words, kinds);

/** "2 to Xu Chu, 1 to Yue Jin": a unit named twice takes two points (§8 Damage Allocation). */
function damageWords(v: WuchaoView, units: string[]): string {
  const counts = new Map<string, number>();
  for (const u of units) counts.set(u, (counts.get(u) ?? 0) + 1);
  return [...counts].map(([u, n]) => `${n} to ${name(v, u)}`).join(', ');
}

const pairs = <T>(words: string[], make: (a: string, b: string) => T): T[] => Array.from({ length: words.length / 2 }, (_, i) => make(words[2 * i]!, words[2 * i + 1]!));

const parse = verbs<WuchaoView, WuchaoCommand>({
  place: verb(['unit', 'space'], ([unit, space]) => ({ type: 'placeUnit', unit: unit!, space: space! })),
  deploy: {
    args: ['unit space...'],
    read: (a, v) => {
      if (a.length % 2) return 'write it as deploy <unit> <space> <unit> <space> ...';
      const r = read(v, a, ['unit', 'space']);
      return typeof r === 'string' ? r : { type: 'deploy', placements: pairs(r, (unit, space) => ({ unit, space })) };
    },
  },
  move: verb(['unit', 'from:space', 'to:space'], ([u, from, to], v) =>
    // The line names where the unit is, so that a stale order is caught, not misread.
    spaceOf(v, u!) === from ? { type: 'move', unit: u!, to: to! } : `${name(v, u!)} is in ${spaceOf(v, u!)}, not ${from}`,
  ),
  'end movement': plainVerb({ type: 'endMovement' }),
  'step back': verb(['unit'], ([unit]) => ({ type: 'stepBack', unit: unit! })),
  reroll: plainVerb({ type: 'reroll' }),
  'accept roll': plainVerb({ type: 'acceptRoll' }),
  allocate: {
    args: ['unit...'],
    read: (a, v) => {
      if (a.length === 1 && a[0] === 'nothing') return { type: 'allocateDamage', units: [] };
      const r = read(v, a, ['unit']);
      return typeof r === 'string' ? r : { type: 'allocateDamage', units: r };
    },
  },
  withdraw: {
    args: ['unit space...'],
    read: (a, v) => {
      if (a.length % 2) return 'write it as withdraw <unit> <space or destroyed> <unit> <space or destroyed> ...';
      const r = read(v, a, ['unit', 'space-or-destroyed']);
      if (typeof r === 'string') return r;
      const from = v.combat?.space;
      if (!from) return 'there is no failed assault to withdraw from';
      return { type: 'withdraw', withdrawals: pairs(r, (unit, to) => ({ unit, from, to: to === 'destroyed' ? null : to })) };
    },
  },
});

export const notation: Notation<WuchaoCommand> = {
  format(c, view) {
    const v = view as unknown as WuchaoView;
    switch (c.type) {
      case 'placeUnit':
        return `place ${c.unit} ${c.space}`;
      case 'deploy':
        return `deploy ${c.placements.map((p) => `${p.unit} ${p.space}`).join(' ')}`;
      case 'move':
        return `move ${c.unit} ${spaceOf(v, c.unit)} ${c.to}`;
      case 'endMovement':
        return 'end movement';
      case 'stepBack':
        return `step back ${c.unit}`;
      case 'reroll':
        return 'reroll';
      case 'acceptRoll':
        return 'accept roll';
      case 'allocateDamage':
        return `allocate ${c.units.length ? c.units.join(' ') : 'nothing'}`;
      case 'withdraw':
        return `withdraw ${c.withdrawals.map((w) => `${w.unit} ${w.to ?? 'destroyed'}`).join(' ')}`;
    }
  },

  text(c, view) {
    const v = view as unknown as WuchaoView;
    switch (c.type) {
      case 'placeUnit':
        return `Place ${name(v, c.unit)} in ${c.space}`;
      case 'deploy':
        return `Place ${c.placements.map((p) => `${name(v, p.unit)} in ${p.space}`).join(', ')}`;
      case 'move':
        return `Move ${name(v, c.unit)} from ${spaceOf(v, c.unit)} to ${c.to}`;
      case 'endMovement':
        return 'End your movement';
      case 'stepBack':
        return `Step ${name(v, c.unit)} back one space along its path (stacking limit)`;
      case 'reroll':
        return `Spend a Xu You token to reroll the die (${v.xuYouTokens} left)`;
      case 'acceptRoll':
        return 'Let the roll stand';
      case 'allocateDamage':
        return c.units.length ? `Allocate the damage: ${damageWords(v, c.units)}` : 'Allocate no damage';
      case 'withdraw':
        return `Withdraw ${c.withdrawals.map((w) => (w.to ? `${name(v, w.unit)} to ${w.to}` : `${name(v, w.unit)} (destroyed: no room)`)).join(', ')}`;
    }
  },

  parse,

  describe(view) {
    const v = view as unknown as WuchaoView;
    const lines = [v.round === null ? `${v.phase}.` : `Round ${v.round} of ${v.rounds}, ${v.phase}.`];
    for (const side of ['cao', 'yuan']) {
      const units = v.units.filter((u) => u.side === side);
      const onMap = units.filter((u) => u.space !== null).map((u) => `${u.name} ${u.space}${u.state === 'reduced' ? ' (reduced)' : ''}`);
      const gone = units.filter((u) => u.state === 'destroyed').map((u) => u.name);
      const waiting = units.filter((u) => u.space === null && u.state !== 'destroyed').map((u) => u.name);
      let line = `${SIDES[side]}: ${onMap.join(', ') || 'no unit on the map'}`;
      if (waiting.length) line += `; to place: ${waiting.join(', ')}`;
      if (gone.length) line += `; destroyed: ${gone.join(', ')}`;
      lines.push(`${line}.`);
    }
    lines.push(`Xu You tokens left: ${v.xuYouTokens}. Granaries raided: ${v.granariesRaided ? 'yes' : 'not yet'}.`);
    const c = v.combat;
    if (c) {
      lines.push(
        `Combat in ${c.space}: ${c.attackers.map((u) => name(v, u)).join(', ')} attack ${c.defenders.map((u) => name(v, u)).join(', ')}` +
          (c.attackTotal !== null ? ` (attack ${c.attackTotal} against defense ${c.defense}${c.damage !== null ? `, ${c.damage} damage` : ''})` : '') +
          '.',
      );
    }
    if (v.result) lines.push(`Game over: ${v.result.reason}.`);
    return lines;
  },
};
