/**
 * The mail notation of Warchon (docs/rules/warchon.md, "Mail notation"): one short line
 * per command. Everything is read from the seat's own view, so an enemy unit the seat has
 * not seen fight stays a marker ("celestine-3") in its lines, sentences and position.
 */
import { idVerbs, plainVerb, verbs, type Notation } from '../kernel/index.ts';
import type { WarchonCommand } from './types.ts';

/** The parts of view.ts's view the notation reads. */
interface UnitSeen {
  id: string;
  army: string;
  spread: number | null;
  destroyed: boolean;
  known: boolean;
  name: string | null;
  hits: number | null;
}
interface WarchonView {
  turn: number;
  phase: string;
  turnLimit: number | null;
  spreads: { number: number; name: string }[];
  units: UnitSeen[];
  unplaced: { army: string; count: number; units: string[] | null }[];
  battle: { spread: number; attacker: string; defender: string; numberCall: { yourNumber: number | null } | null; lastNumber: { value: number } | null } | null;
  result: { winners: string[]; reason: string } | null;
}

const ARMY: Record<string, string> = { azuthkan: 'Azuthkan', celestine: 'Celestine' };
const unitOf = (v: WarchonView, id: string) => v.units.find((u) => u.id === id);
/** "Deathknoll Ogres (azuthkan-2)", or "an unknown Celestine unit (celestine-3)". */
function label(v: WarchonView, id: string): string {
  const u = unitOf(v, id);
  if (!u) return id;
  return u.known && u.name ? `${u.name} (${id})` : `an unknown ${ARMY[u.army] ?? u.army} unit (${id})`;
}
const spreadName = (v: WarchonView, n: number | null) => (n === null ? 'off the battlefield' : `${v.spreads.find((s) => s.number === n)?.name ?? '?'} (spread ${n})`);
const spreadOfUnit = (v: WarchonView, id: string) => unitOf(v, id)?.spread ?? null;

const verb = idVerbs<WarchonView>((v, kind, seat) =>
  kind === 'spread'
    ? { ids: v.spreads.map((s) => String(s.number)), what: 'spread' }
    : kind === 'unplaced'
      ? { ids: v.unplaced.find((p) => p.army === seat)?.units ?? [], what: 'unplaced unit of yours' }
      : { ids: v.units.map((u) => u.id), what: 'unit' },
);
const oneUnit = <T extends WarchonCommand['type']>(type: T) => verb(['unit'], ([unit]) => ({ type, unit: unit! }) as WarchonCommand);

const parse = verbs<WarchonView, WarchonCommand>({
  place: verb(['unit:unplaced', 'spread'], ([unit, spread]) => ({ type: 'placeUnit', unit: unit!, spread: Number(spread) })),
  move: verb(['unit', 'from:spread', 'to:spread'], ([unit, from, to], v) =>
    // The line names where the unit is, so that a stale order is caught, not misread.
    spreadOfUnit(v, unit!) === Number(from)
      ? { type: 'moveUnit', unit: unit!, to: Number(to) }
      : `${label(v, unit!)} is in ${spreadName(v, spreadOfUnit(v, unit!))}, not spread ${from}`,
  ),
  'end movement': plainVerb({ type: 'endMovement' }),
  berserk: oneUnit('goBerserk'),
  'end strategy': plainVerb({ type: 'endStrategy' }),
  number: {
    args: ['1-5'],
    read: ([n]) => (/^[1-5]$/.test(n!) ? { type: 'commitNumber', number: Number(n) } : `the number is a whole number from 1 to 5, not "${n}"`),
  },
  hit: oneUnit('assignHit'),
  choose: oneUnit('chooseUnit'),
  pass: plainVerb({ type: 'passChoice' }),
  bridge: oneUnit('commitToBridge'),
  'cross bridge': plainVerb({ type: 'crossBridge' }),
  retreat: verb(['unit', 'to:spread'], ([unit, to]) => ({ type: 'retreatUnit', unit: unit!, to: Number(to) })),
  destroy: oneUnit('destroyUnit'),
});

export const notation: Notation<WarchonCommand> = {
  format(c, view) {
    const v = view as unknown as WarchonView;
    switch (c.type) {
      case 'placeUnit':
        return `place ${c.unit} ${c.spread}`;
      case 'moveUnit':
        return `move ${c.unit} ${spreadOfUnit(v, c.unit) ?? '?'} ${c.to}`;
      case 'endMovement':
        return 'end movement';
      case 'goBerserk':
        return `berserk ${c.unit}`;
      case 'endStrategy':
        return 'end strategy';
      case 'commitNumber':
        return `number ${c.number}`;
      case 'assignHit':
        return `hit ${c.unit}`;
      case 'chooseUnit':
        return `choose ${c.unit}`;
      case 'passChoice':
        return 'pass';
      case 'commitToBridge':
        return `bridge ${c.unit}`;
      case 'crossBridge':
        return 'cross bridge';
      case 'retreatUnit':
        return `retreat ${c.unit} ${c.to}`;
      case 'destroyUnit':
        return `destroy ${c.unit}`;
    }
  },

  text(c, view) {
    const v = view as unknown as WarchonView;
    switch (c.type) {
      case 'placeUnit':
        return `Place ${c.unit} in ${spreadName(v, c.spread)}`;
      case 'moveUnit':
        return `Move ${label(v, c.unit)} from ${spreadName(v, spreadOfUnit(v, c.unit))} to ${spreadName(v, c.to)}`;
      case 'endMovement':
        return 'End your movement';
      case 'goBerserk':
        return `${label(v, c.unit)} goes berserk`;
      case 'endStrategy':
        return 'End your Strategy Round';
      case 'commitNumber':
        return `Choose the secret number ${c.number}`;
      case 'assignHit':
        return `Assign a Hit to ${label(v, c.unit)}`;
      case 'chooseUnit':
        return `Choose ${label(v, c.unit)}`;
      case 'passChoice':
        return 'Choose no unit';
      case 'commitToBridge':
        return `Send ${label(v, c.unit)} onto the Magic Bridge`;
      case 'crossBridge':
        return 'Cross the Magic Bridge with the units sent onto it';
      case 'retreatUnit':
        return `Retreat ${label(v, c.unit)} to ${spreadName(v, c.to)}`;
      case 'destroyUnit':
        return `Destroy ${label(v, c.unit)} (over Capacity)`;
    }
  },

  parse,

  describe(view, viewer) {
    const v = view as unknown as WarchonView;
    const lines = [v.turn ? `Turn ${v.turn}${v.turnLimit ? ` of ${v.turnLimit}` : ''}, ${v.phase}.` : `${v.phase}.`];
    for (const sp of v.spreads) {
      const here = v.units.filter((u) => u.spread === sp.number && !u.destroyed);
      if (here.length) lines.push(`${sp.name} (spread ${sp.number}): ${here.map((u) => `${label(v, u.id)}${u.known && u.hits !== null ? `, ${u.hits} hit${u.hits === 1 ? '' : 's'} left` : ''}`).join('; ')}.`);
    }
    for (const p of v.unplaced) {
      if (p.count) lines.push(`${ARMY[p.army] ?? p.army}: ${p.count} unit${p.count === 1 ? '' : 's'} still to place${p.units ? ` (${p.units.join(', ')})` : ''}.`);
    }
    const b = v.battle;
    if (b) {
      let line = `Battle in ${spreadName(v, b.spread)}: ${ARMY[b.attacker] ?? b.attacker} attacks ${ARMY[b.defender] ?? b.defender}`;
      if (b.lastNumber) line += `; the last number was ${b.lastNumber.value}`;
      if (viewer !== null && b.numberCall?.yourNumber) line += `; your secret number is ${b.numberCall.yourNumber}`;
      lines.push(`${line}.`);
    }
    if (v.result) lines.push(`Game over: ${v.result.reason}.`);
    return lines;
  },
};
