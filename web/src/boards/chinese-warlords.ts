/** Chinese Warlords: the hex map (odd-r offset "col,row") with terrain, stacks and carriers. */
import { seatColour } from '../catalogue.ts';
import { h, pretty, s, svgButton } from '../dom.ts';
import type { ChineseWarlordsView } from '../generated/schema.ts';
import type { Board, BoardContext } from './types.ts';

const R = 26;
const W = Math.sqrt(3) * R;
const TERRAIN_FILL: Record<string, string> = { village: '#fbd38d', stronghold: '#feb2b2', open: '#f0fff4', road: '#e2e8f0', paddies: '#c6f6d5', jungle: '#68d391', water: '#90cdf4' };
/** Each unit type in words, for the legend and the stacks' contents. */
const UNIT_NAME: Record<string, string> = { peasants: 'peasants', thugs: 'thugs', bodyguards: 'bodyguards', lieutenant: 'lieutenant', warlord: 'warlord', vehicles: 'vehicles (carry units)', machineGun: 'machine gun', artillery: 'artillery', armoredVehicle: 'armoured vehicle', boats: 'boats (carry units)' };

/** "2 peasants, 1 thugs, 1 vehicles carrying 2". */
function stackInWords(here: Unit[]): string {
  const counts = new Map<string, number>();
  for (const u of here) counts.set(u.type, (counts.get(u.type) ?? 0) + 1);
  return [...counts].map(([t, n]) => `${n} ${(UNIT_NAME[t] ?? pretty(t)).replace(/ \(carry units\)/, '')}`).join(', ') + (here.some((u) => u.carriedBy) ? ` (${here.filter((u) => u.carriedBy).length} carried)` : '');
}

const ABBR: Record<string, string> = { peasants: 'P', thugs: 'T', bodyguards: 'B', lieutenant: 'L', warlord: 'W', vehicles: 'V', machineGun: 'MG', artillery: 'A', armoredVehicle: 'AV', boats: 'Bt' };
const CARRIERS = new Set(['vehicles', 'boats', 'armoredVehicle']);

interface Hex { id: string; col: number; row: number; terrain: string; controller: string | null }
interface Unit { id: string; type: string; name: string; owner: string; hex: string; carriedBy: string | null; force: number; range: number; movementLeft: number; attacked: boolean; retreated: boolean }
const units = (view: ChineseWarlordsView) => view.units as Unit[];
const centre = (h: { col: number; row: number }) => ({ x: W / 2 + 4 + W * (h.col + 0.5 * (h.row & 1)), y: R + 4 + 1.5 * R * h.row });

function hexPoints(x: number, y: number) {
  return Array.from({ length: 6 }, (_, i) => {
    const a = (Math.PI / 180) * (60 * i - 30);
    return `${(x + R * Math.cos(a)).toFixed(1)},${(y + R * Math.sin(a)).toFixed(1)}`;
  }).join(' ');
}

function unitLabel(view: ChineseWarlordsView, u: Unit) {
  const carrier = u.carriedBy ? units(view).find((x) => x.id === u.carriedBy) : null;
  const passengers = units(view).filter((x) => x.carriedBy === u.id).length;
  return `${pretty(u.owner)} ${u.name} (force ${u.force}, range ${u.range}, ${u.movementLeft} MP left${u.attacked ? ', attacked' : ''}${carrier ? `, aboard ${carrier.name}` : ''}${passengers ? `, carrying ${passengers}` : ''})`;
}

export const chineseWarlords: Board<ChineseWarlordsView> = {
  pieceOf(c) {
    if (c.type === 'recruit') return `recruit:${c.unitType}`;
    if (c.type === 'attack') return `stack:${c.stack}`;
    return typeof c.unit === 'string' ? c.unit : null;
  },
  placeOf(c) {
    if (c.type === 'recruit') return String(c.hex);
    if (c.type === 'attack') return String(c.target);
    if (c.type === 'move' || c.type === 'retreat') return String(c.to);
    return null;
  },
  pieceLabel(view, key) {
    if (key.startsWith('recruit:')) return `Recruit ${pretty(key.slice(8))}`;
    if (key.startsWith('stack:')) return `The stack in ${key.slice(6)} (to attack)`;
    const u = units(view).find((x) => x.id === key);
    return u ? unitLabel(view, u) : key;
  },
  placeLabel(view, key) {
    const hx = (view.map.hexes as Hex[]).find((x) => x.id === key);
    return hx ? `Hex ${key}: ${hx.terrain}${hx.controller ? `, held by ${pretty(hx.controller)}` : ''}` : key;
  },
  piecesAt(view, place) {
    const here = units(view).filter((u) => u.hex === place);
    const stack = here.length && here.some((u) => u.owner === view.activeSeat) ? [{ key: `stack:${place}`, label: `The whole stack in ${place} (attack with it)` }] : [];
    return [...stack, ...here.map((u) => ({ key: u.id, label: unitLabel(view, u) }))];
  },
  describe(c, view) {
    const n = (id: unknown) => {
      const u = units(view).find((x) => x.id === id);
      return u ? `${u.name} (${u.id})` : String(id);
    };
    switch (c.type) {
      case 'recruit': return `Recruit ${pretty(String(c.unitType))} in ${c.hex}`;
      case 'endRecruitment': return 'End recruitment';
      case 'move': return `Move ${n(c.unit)} to ${c.to}`;
      case 'board': return `${n(c.unit)} boards ${n(c.carrier)}`;
      case 'unload': return `Unload ${n(c.unit)}`;
      case 'endMovement': return 'End movement';
      case 'attack': return `The stack in ${c.stack} attacks ${c.target}`;
      case 'resolveAttack': return 'Resolve the attack (roll 1D10)';
      case 'endCombat': return 'End combat';
      case 'loseUnit': return `Lose ${n(c.unit)}`;
      case 'retreat': return `Retreat to ${c.to}`;
      case 'beginTurn': return 'Begin the turn (roll initiative)';
    }
    return pretty(c.type);
  },
  formatEvent(e, view, seatName) {
    const d = e.data;
    const n = (id: string) => units(view)?.find((u) => u.id === id)?.name ?? id;
    switch (e.type) {
      case 'GameSetUp': return `The map: ${d.map?.name ?? 'custom'}.`;
      case 'TurnBegan': return `Turn ${d.turn} begins; initiative order ${d.order.map(seatName).join(', ')}.`;
      case 'IncomeCollected': return `Income: ${d.incomes.map((i: any) => `${seatName(i.seat)} +${i.total} (treasury ${i.treasury})`).join(', ')}.`;
      case 'UpkeepSettled': return `Upkeep: ${d.upkeep.map((u: any) => `${seatName(u.seat)} ${u.paid ? `paid ${u.due}` : 'could not pay'}`).join(', ')}.`;
      case 'PhaseBegan': return `${pretty(d.phase)}${d.seat ? ` for ${seatName(d.seat)}` : ''}.`;
      case 'UnitLost': return `${seatName(d.seat)} lost ${pretty(d.unitType)} in ${d.hex} (${d.cause}).`;
      case 'AvailabilityRolled': return `${seatName(d.seat)} rolled ${d.total} for ${pretty(d.unitType)}: ${d.available ? 'available' : 'not available'}.`;
      case 'UnitRecruited': return `${seatName(d.seat)} recruited ${pretty(d.unitType)} in ${d.hex} for ${d.cost} (treasury ${d.treasury}).`;
      case 'RecruitmentEnded': return `${seatName(d.seat)} ended recruitment.`;
      case 'UnitMoved': return `${n(d.unit)} moved ${d.path.join(' → ')}${d.passengers.length ? ` carrying ${d.passengers.length}` : ''}.`;
      case 'UnitBoarded': return `${n(d.unit)} boarded ${n(d.carrier)} in ${d.hex}.`;
      case 'UnitUnloaded': return `${n(d.unit)} unloaded from ${n(d.carrier)} in ${d.hex}.`;
      case 'ControlTaken': return `${seatName(d.seat)} took ${d.hex}.`;
      case 'StrongholdCaptured': return `${seatName(d.seat)} captured ${seatName(d.owner)}'s stronghold ${d.hex}!`;
      case 'MovementEnded': return `${seatName(d.seat)} ended movement.`;
      case 'AttackDeclared': return `${seatName(d.seat)} attacks ${d.target} from ${d.stack}.`;
      case 'CombatResolved': return `Combat resolved${d.result ? `: ${d.result}` : ''}${d.roll ? ` (roll ${d.roll})` : ''}.`;
      case 'StackRetreated': return `The stack retreated ${d.from} → ${d.to}.`;
      case 'CombatEnded': return `${seatName(d.seat)} ended combat.`;
      case 'PlayerDefeated': return `${seatName(d.seat)} is defeated: ${d.reason}.`;
      case 'TurnLimitReached': return `The turn limit (${d.turn}) is reached.`;
    }
    return null;
  },
  summary(view, game) {
    const players = view.players as { seat: string; treasury: number; ability: string; abilityText: string; out: boolean; unavailable: string[]; upkeepLossesToChoose: number }[];
    const a = view.attack, d = view.defense;
    // What the colours and the letters on the map mean (the letters are the unit types').
    const terrain = h('span', { class: 'legend' }, 'Terrain: ', Object.entries(TERRAIN_FILL).map(([t, c]) => h('span', {}, h('i', { style: `background:${c}` }), t)));
    const letters = h('span', { class: 'legend units' }, 'Units: ', Object.entries(ABBR).map(([t, a]) => h('span', {}, h('b', {}, a), ` ${UNIT_NAME[t] ?? pretty(t)}`)), h('span', {}, h('b', {}, 'vehicle / boat'), ' a carrier, +N: units aboard'));
    return [
      terrain,
      letters,
      `Turn ${view.turn}${view.turnLimit ? ` of ${view.turnLimit}` : ''} · ${pretty(view.phase)}${view.activeSeat ? ` · ${pretty(view.activeSeat)}` : ''} · ${view.map.name}`,
      ...players.map((p) => `${game.seats.find((x) => x.id === p.seat)?.name ?? p.seat} (${p.seat}): treasury ${p.treasury}; ${p.ability} — ${p.abilityText}${p.out ? '; out' : ''}${p.unavailable.length ? `; unavailable: ${p.unavailable.map(pretty).join(', ')}` : ''}${p.upkeepLossesToChoose ? `; ${p.upkeepLossesToChoose} upkeep losses to choose` : ''}`),
      ...(a ? [`Attack forming: ${pretty(a.attacker)} on ${a.target} (${a.units.length} units)`] : []),
      ...(d ? [`${pretty(d.defender)} defends ${d.hex}: ${d.result}${d.lossesToChoose ? `, ${d.lossesToChoose} losses to choose` : ''}${d.afterLosses ? `, then ${d.afterLosses}` : ''}`] : []),
    ];
  },
  render(ctx: BoardContext<ChineseWarlordsView>) {
    const view = ctx.view;
    const hexes = view.map.hexes as Hex[];
    const maxCol = Math.max(...hexes.map((x) => x.col)), maxRow = Math.max(...hexes.map((x) => x.row));
    const width = W * (maxCol + 1.5) + 8, height = 1.5 * R * maxRow + 2 * R + 8;
    const recruits = [...new Set(ctx.commands.filter((c) => c.type === 'recruit').map((c) => String(c.unitType)))];
    const perRow = Math.max(1, Math.floor((width - 10) / 64)); // the tray wraps at the map's width
    const trayH = recruits.length ? 22 + Math.ceil(recruits.length / perRow) * 34 : 0;
    const svg = s('svg', { viewBox: `0 0 ${width} ${height + trayH}`, class: 'board-svg', role: 'group', 'aria-label': `Chinese Warlords map: ${view.map.name}` });
    const byHex = new Map<string, Unit[]>();
    for (const u of units(view)) byHex.set(u.hex, [...(byHex.get(u.hex) ?? []), u]);
    const strongholds = view.map.strongholds as string[];
    for (const hx of hexes) {
      const { x, y } = centre(hx);
      const dest = ctx.destinations.has(hx.id);
      const here = byHex.get(hx.id) ?? [];
      const g = s('g', { class: `hex${dest ? ' dest' : ''}${ctx.inspected === hx.id ? ' inspected' : ''}`, 'data-place': hx.id });
      g.append(s('polygon', { points: hexPoints(x, y), fill: TERRAIN_FILL[hx.terrain] ?? '#eee', stroke: hx.controller ? seatColour(hx.controller) : '#a0aec0', 'stroke-width': hx.controller ? 2.5 : 0.8 }));
      if (hx.terrain === 'village') g.append(s('text', { x, y: y - R / 2 + 2, class: 'terrain-glyph', 'text-anchor': 'middle' }, 'village'));
      if (hx.terrain === 'stronghold') g.append(s('text', { x, y: y - R / 2 + 2, class: 'terrain-glyph', 'text-anchor': 'middle' }, 'stronghold'));
      if (here.length) {
        const owner = here[0]!.owner;
        const top = here.filter((u) => !u.carriedBy);
        const carried = here.length - top.length;
        const sel = ctx.selection && (ctx.selection === `stack:${hx.id}` || here.some((u) => u.id === ctx.selection));
        g.append(s('rect', { x: x - 20, y: y - 7, width: 40, height: 17, rx: 4, fill: seatColour(owner), stroke: sel ? '#000' : '#fff', 'stroke-width': sel ? 2.5 : 1, class: 'stack' }));
        const types = [...new Set(top.map((u) => ABBR[u.type] ?? u.type))].slice(0, 3).join('');
        g.append(s('text', { x, y: y + 5, class: 'stack-text', 'text-anchor': 'middle' }, `${here.length}${types ? ' ' + types : ''}`.slice(0, 7)));
        if (top.some((u) => CARRIERS.has(u.type))) g.append(s('text', { x, y: y + R - 6, class: 'carrier-text', 'text-anchor': 'middle' }, `${top.some((u) => u.type === 'boats') ? 'boat' : 'vehicle'}${carried ? ` +${carried}` : ''}`));
        if (here.some((u) => ctx.selectable.has(u.id)) || ctx.selectable.has(`stack:${hx.id}`)) g.classList.add('can');
      }
      // The stack in words, read on hover (its title) or by a screen reader.
      const label = `${this.placeLabel(view, hx.id)}${here.length ? `; ${pretty(here[0]!.owner)}: ${stackInWords(here)}` : ''}${dest ? ' — a destination' : ''}`;
      svgButton(g, label, () => ctx.clickPlace(hx.id));
      svg.append(g);
    }
    if (recruits.length) {
      svg.append(s('text', { x: 8, y: height + 10, class: 'tray-title' }, 'Recruit — pick a unit type, then a highlighted hex:'));
      recruits.forEach((t, i) => {
        const key = `recruit:${t}`;
        const x = 8 + (i % perRow) * 64, y = height + 18 + Math.floor(i / perRow) * 34;
        const g = s('g', { class: `piece can${ctx.selection === key ? ' selected' : ''}`, 'data-piece': key });
        g.append(s('rect', { x, y, width: 58, height: 32, rx: 5, fill: seatColour(ctx.game.yourSeat) }));
        g.append(s('text', { x: x + 29, y: y + 20, class: 'unit-abbr', 'text-anchor': 'middle' }, ABBR[t] ?? t));
        svgButton(g, `Recruit ${pretty(t)}`, () => ctx.clickPiece(key, null));
        svg.append(g);
      });
    }
    return svg;
  },
};
