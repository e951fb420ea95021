/**
 * The mail notation of Three Kingdoms Combined Arms (docs/rules/three-kingdoms-combined-arms.md,
 * "Mail notation"): one short line per command, read from the seat's view (nothing is hidden).
 */
import { idVerbs, plainVerb, verbs, type Notation } from '../kernel/index.ts';
import { ALL_SQUARES } from './board.ts';
import type { TkCommand } from './commands.ts';
import { UNIT_KINDS, UNIT_LIST, type UnitKind } from './data.ts';

/** The parts of view.ts's view the notation reads. */
interface TkView {
  stage: string;
  round: number | null;
  activeSeat: string | null;
  phase: string;
  turnLimit: number | null;
  players: { seat: string; faction: string; out: boolean; citiesControlled: number; reserve: { kind: string; count: number }[] }[];
  units: { id: string; name: string; seat: string; kind: string; square: string; damage: number }[];
  pendingRetreat: { unit: string; seat: string; options: string[] } | null;
  result: { winners: string[]; reason: string } | null;
}

const unitOf = (v: TkView, id: string) => v.units.find((u) => u.id === id);
const name = (v: TkView, id: string) => unitOf(v, id)?.name ?? id;
const squareOf = (v: TkView, id: string) => unitOf(v, id)?.square ?? '?';

const verb = idVerbs<TkView>((v, kind) =>
  kind === 'unit' ? { ids: v.units.map((u) => u.id), what: 'unit' } : kind === 'square' ? { ids: ALL_SQUARES, what: 'square' } : { ids: UNIT_KINDS, what: `unit kind (${UNIT_KINDS.join(', ')})` },
);

const parse = verbs<TkView, TkCommand>({
  place: verb(['kind', 'square'], ([kind, square]) => ({ type: 'placeUnit', kind: kind as UnitKind, square: square! })),
  move: verb(['unit', 'from:square', 'to:square'], ([unit, from, to], v) =>
    // The line names where the unit stands, so that a stale order is caught, not misread.
    squareOf(v, unit!) === from ? { type: 'move', unit: unit!, to: to! } : `${name(v, unit!)} is on ${squareOf(v, unit!)}, not ${from}`,
  ),
  'end movement': plainVerb({ type: 'endMovement' }),
  attack: verb(['unit', 'target:unit'], ([unit, target]) => ({ type: 'attack', unit: unit!, target: target! })),
  'end turn': plainVerb({ type: 'endTurn' }),
  retreat: verb(['unit', 'to:square'], ([unit, to]) => ({ type: 'retreat', unit: unit!, to: to! })),
});

export const notation: Notation<TkCommand> = {
  format(c, view) {
    const v = view as unknown as TkView;
    switch (c.type) {
      case 'placeUnit':
        return `place ${c.kind} ${c.square}`;
      case 'move':
        return `move ${c.unit} ${squareOf(v, c.unit)} ${c.to}`;
      case 'endMovement':
        return 'end movement';
      case 'attack':
        return `attack ${c.unit} ${c.target}`;
      case 'endTurn':
        return 'end turn';
      case 'retreat':
        return `retreat ${c.unit} ${c.to}`;
    }
  },

  text(c, view) {
    const v = view as unknown as TkView;
    switch (c.type) {
      case 'placeUnit':
        return `Place ${UNIT_LIST[c.kind]?.name ?? c.kind} on ${c.square}`;
      case 'move':
        return `Move ${name(v, c.unit)} from ${squareOf(v, c.unit)} to ${c.to}`;
      case 'endMovement':
        return 'End your movement and go to the attack phase';
      case 'attack':
        return `${name(v, c.unit)} (${squareOf(v, c.unit)}) attacks ${name(v, c.target)} (${squareOf(v, c.target)})`;
      case 'endTurn':
        return 'End your turn';
      case 'retreat':
        return `Retreat ${name(v, c.unit)} from ${squareOf(v, c.unit)} to ${c.to}`;
    }
  },

  parse,

  describe(view) {
    const v = view as unknown as TkView;
    const active = v.players.find((p) => p.seat === v.activeSeat);
    const lines = [v.round === null ? 'Setup.' : `Round ${v.round}${v.turnLimit ? ` of ${v.turnLimit}` : ''}${active ? `, ${active.faction} to play (${v.phase === 'ATTACK' ? 'attack' : 'move'} phase)` : ''}.`];
    for (const p of v.players) {
      const units = v.units.filter((u) => u.seat === p.seat).map((u) => `${u.name} ${u.square}${u.damage ? ` (${u.damage} damage)` : ''}`);
      const reserve = p.reserve.map((r) => `${r.count} ${r.kind}`);
      let line = `${p.faction}${p.out ? ' (out)' : ''}: ${units.join(', ') || 'no unit on the board'}; ${p.citiesControlled} cities`;
      if (reserve.length) line += `; to place: ${reserve.join(', ')}`;
      lines.push(`${line}.`);
    }
    if (v.pendingRetreat) lines.push(`${name(v, v.pendingRetreat.unit)} must retreat to one of ${v.pendingRetreat.options.join(', ')}.`);
    if (v.result) lines.push(`Game over: ${v.result.reason}.`);
    return lines;
  },
};
