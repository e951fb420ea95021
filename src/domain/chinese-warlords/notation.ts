/**
 * The mail notation of Chinese Warlords (docs/rules/chinese-warlords.md, "Mail notation"):
 * one short line per command, read from the seat's view (nothing is hidden). Hexes are
 * written as the API names them, "col,row".
 */
import { idVerbs, plainVerb, verbs, type Notation } from '../kernel/index.ts';
import type { WarlordsCommand } from './commands.ts';
import { UNIT_TYPE_IDS, UNIT_TYPES, type UnitType } from './data.ts';

/** The parts of view.ts's view the notation reads. */
interface WarlordsView {
  turn: number;
  phase: string;
  activeSeat: string | null;
  turnLimit: number | null;
  map: { hexes: { id: string }[] };
  players: { seat: string; treasury: number; ability: string; stronghold: string; out: boolean }[];
  units: { id: string; type: string; name: string; owner: string; hex: string; carriedBy: string | null }[];
  attack: { target: string; stacks: string[] } | null;
  result: { winners: string[]; reason: string } | null;
}

const unitOf = (v: WarlordsView, id: string) => v.units.find((u) => u.id === id);
const name = (v: WarlordsView, id: string) => `${unitOf(v, id)?.name ?? 'unit'} ${id}`;
const hexOf = (v: WarlordsView, id: string) => unitOf(v, id)?.hex ?? '?';

const verb = idVerbs<WarlordsView>((v, kind) =>
  kind === 'unit'
    ? { ids: v.units.map((u) => u.id), what: 'unit' }
    : kind === 'hex'
      ? { ids: v.map.hexes.map((h) => h.id), what: 'hex (write col,row)' }
      : { ids: UNIT_TYPE_IDS, what: `unit type (${UNIT_TYPE_IDS.join(', ')})` },
);

const parse = verbs<WarlordsView, WarlordsCommand>({
  recruit: verb(['type', 'hex'], ([t, hex]) => ({ type: 'recruit', unitType: t as UnitType, hex: hex! })),
  'end recruitment': plainVerb({ type: 'endRecruitment' }),
  move: verb(['unit', 'from:hex', 'to:hex'], ([unit, from, to], v) =>
    // The line names where the unit is, so that a stale order is caught, not misread.
    hexOf(v, unit!) === from ? { type: 'move', unit: unit!, to: to! } : `${name(v, unit!)} is in ${hexOf(v, unit!)}, not ${from}`,
  ),
  board: verb(['unit', 'carrier:unit'], ([unit, carrier]) => ({ type: 'board', unit: unit!, carrier: carrier! })),
  unload: verb(['unit'], ([unit]) => ({ type: 'unload', unit: unit! })),
  'end movement': plainVerb({ type: 'endMovement' }),
  attack: verb(['from:hex', 'target:hex'], ([stack, target]) => ({ type: 'attack', stack: stack!, target: target! })),
  'resolve attack': plainVerb({ type: 'resolveAttack' }),
  'end combat': plainVerb({ type: 'endCombat' }),
  lose: verb(['unit'], ([unit]) => ({ type: 'loseUnit', unit: unit! })),
  retreat: verb(['to:hex'], ([to]) => ({ type: 'retreat', to: to! })),
  'begin turn': plainVerb({ type: 'beginTurn' }),
  village: verb(['hex'], ([hex]) => ({ type: 'chooseVillage', hex: hex! })),
});

export const notation: Notation<WarlordsCommand> = {
  format(c, view) {
    const v = view as unknown as WarlordsView;
    switch (c.type) {
      case 'recruit':
        return `recruit ${c.unitType} ${c.hex}`;
      case 'endRecruitment':
        return 'end recruitment';
      case 'move':
        return `move ${c.unit} ${hexOf(v, c.unit)} ${c.to}`;
      case 'board':
        return `board ${c.unit} ${c.carrier}`;
      case 'unload':
        return `unload ${c.unit}`;
      case 'endMovement':
        return 'end movement';
      case 'attack':
        return `attack ${c.stack} ${c.target}`;
      case 'resolveAttack':
        return 'resolve attack';
      case 'endCombat':
        return 'end combat';
      case 'loseUnit':
        return `lose ${c.unit}`;
      case 'retreat':
        return `retreat ${c.to}`;
      case 'beginTurn':
        return 'begin turn';
      case 'chooseVillage':
        return `village ${c.hex}`;
    }
  },

  text(c, view) {
    const v = view as unknown as WarlordsView;
    switch (c.type) {
      case 'recruit':
        return `Recruit ${UNIT_TYPES[c.unitType]?.name ?? c.unitType} in ${c.hex}`;
      case 'endRecruitment':
        return 'End your recruitment';
      case 'move':
        return `Move ${name(v, c.unit)} from ${hexOf(v, c.unit)} to ${c.to}`;
      case 'board':
        return `Put ${name(v, c.unit)} aboard ${name(v, c.carrier)}`;
      case 'unload':
        return `Take ${name(v, c.unit)} off its carrier`;
      case 'endMovement':
        return 'End your movement';
      case 'attack':
        return v.attack ? `The stack in ${c.stack} joins the attack on ${c.target}` : `The stack in ${c.stack} attacks the stack in ${c.target}`;
      case 'resolveAttack':
        return 'Roll the attack on the Combat Resolution Table';
      case 'endCombat':
        return 'End your combat phase';
      case 'loseUnit':
        return `Lose ${name(v, c.unit)} (in ${hexOf(v, c.unit)})`;
      case 'retreat':
        return `Retreat the attacked stack to ${c.to}`;
      case 'beginTurn':
        return 'Roll initiative for the next turn';
      case 'chooseVillage':
        return `Take the village in ${c.hex} (ability 4, Nearby Village)`;
    }
  },

  parse,

  describe(view) {
    const v = view as unknown as WarlordsView;
    const lines = [v.turn ? `Turn ${v.turn}${v.turnLimit ? ` of ${v.turnLimit}` : ''}, ${v.phase}${v.activeSeat ? ` (${v.activeSeat})` : ''}.` : 'Setup.'];
    for (const p of v.players) {
      const byHex = new Map<string, string[]>();
      for (const u of v.units.filter((x) => x.owner === p.seat)) byHex.set(u.hex, [...(byHex.get(u.hex) ?? []), `${u.name} ${u.id}`]);
      const stacks = [...byHex].map(([hex, us]) => `${hex}: ${us.join(', ')}`);
      lines.push(`${p.seat}${p.out ? ' (out)' : ''}, treasury ${p.treasury}, ${p.ability}, stronghold ${p.stronghold}: ${stacks.join('; ') || 'no units'}.`);
    }
    if (v.attack) lines.push(`An attack on ${v.attack.target} is being formed from ${v.attack.stacks.join(', ')}.`);
    if (v.result) lines.push(`Game over: ${v.result.reason}.`);
    return lines;
  },
};
