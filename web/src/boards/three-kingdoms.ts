/** Three Kingdoms Combined Arms: the 12x12 grid (A1 south-west) with its terrain and units. */
import { seatColour } from '../catalogue.ts';
import { pretty, s, svgButton } from '../dom.ts';
import type { ThreeKingdomsCombinedArmsView } from '../generated/schema.ts';
import type { Board, BoardContext } from './types.ts';

const CELL = 44;
const MARGIN = 22;
const ABBR: Record<string, string> = { general: 'G', armoredCavalry: 'AC', infantry: 'I', archers: 'Ar', rockets: 'R', shockTroops: 'ST', horseArchers: 'HA' };
const TERRAIN_FILL: Record<string, string> = { city: '#fbd38d', forest: '#9ae6b4', mountain: '#cbd5e0' };

interface Unit { id: string; name: string; seat: string; kind: string; square: string; move: number; range: number; defense: number; damage: number; moved: boolean; attacked: boolean; retreated: boolean }
const units = (view: ThreeKingdomsCombinedArmsView) => view.units as Unit[];
const colOf = (sq: string) => sq.charCodeAt(0) - 65;
const rowOf = (sq: string) => Number(sq.slice(1));

export const threeKingdoms: Board<ThreeKingdomsCombinedArmsView> = {
  pieceOf(c) {
    if (c.type === 'placeUnit') return `reserve:${c.kind}`;
    return typeof c.unit === 'string' ? c.unit : null;
  },
  placeOf(c, view) {
    if (c.type === 'attack') return units(view).find((u) => u.id === c.target)?.square ?? null;
    return typeof c.to === 'string' ? c.to : typeof c.square === 'string' ? c.square : null;
  },
  pieceLabel(view, key) {
    if (key.startsWith('reserve:')) return `${pretty(key.slice(8))} (to place)`;
    const u = units(view).find((x) => x.id === key);
    return u ? `${pretty(u.seat)} ${u.name} in ${u.square} (move ${u.move}, range ${u.range}, defense ${u.defense}${u.damage ? `, damage ${u.damage}` : ''})` : key;
  },
  placeLabel(view, sq) {
    const t = (view.terrain as { square: string; kind: string; controller: string | null }[]).find((x) => x.square === sq);
    return `${sq}${t ? ` (${t.kind}${t.controller ? `, held by ${pretty(t.controller)}` : ''})` : ''}`;
  },
  piecesAt(view, place) {
    return units(view).filter((u) => u.square === place).map((u) => ({ key: u.id, label: this.pieceLabel(view, u.id) }));
  },
  describe(c, view) {
    const n = (id: unknown) => units(view).find((u) => u.id === id)?.name ?? String(id);
    switch (c.type) {
      case 'placeUnit': return `Place ${pretty(String(c.kind))} in ${c.square}`;
      case 'move': return `Move ${n(c.unit)} to ${c.to}`;
      case 'attack': return `${n(c.unit)} attacks ${n(c.target)}`;
      case 'retreat': return `Retreat ${n(c.unit)} to ${c.to}`;
      case 'endMovement': return 'End movement';
      case 'endTurn': return 'End turn';
    }
    return pretty(c.type);
  },
  formatEvent(e, view, seatName) {
    const d = e.data;
    const n = (id: string) => units(view)?.find((u) => u.id === id)?.name ?? (view?.destroyed as Unit[] | undefined)?.find((u) => u.id === id)?.name ?? id;
    switch (e.type) {
      case 'TerrainPlaced': return 'The terrain is laid out.';
      case 'UnitPlaced': return `${seatName(d.seat)} placed ${pretty(d.kind)} in ${d.square}.`;
      case 'SetupCompleted': return 'Set-up complete.';
      case 'TurnStarted': return `Round ${d.round}: ${seatName(d.seat)}'s turn.`;
      case 'UnitMoved': return `${n(d.unit)} moved ${d.from} → ${d.to}.`;
      case 'CityOccupied': return `${seatName(d.seat)} occupies the city ${d.square}.`;
      case 'MovementEnded': return `${seatName(d.seat)} ended movement.`;
      case 'UnitAttacked': return `${n(d.unit)} attacked ${n(d.target)}: ${d.damage} damage (${d.damageThisPhase} of defense ${d.defense}).`;
      case 'RetreatForced': return `${n(d.unit)} must retreat from ${d.from}.`;
      case 'UnitRetreated': return `${n(d.unit)} retreated ${d.from} → ${d.to}.`;
      case 'UnitDestroyed': return `${seatName(d.seat)}'s ${pretty(d.kind)} destroyed in ${d.square}.`;
      case 'PlayerOut': return `${seatName(d.seat)} is out: ${d.reason}.`;
      case 'TurnEnded': return `${seatName(d.seat)} ended the turn.`;
    }
    return null;
  },
  summary(view, game) {
    const players = view.players as { seat: string; faction: string; corner: string; out: boolean; citiesControlled: number; reserve: { name: string; count: number }[] }[];
    return [
      `${view.round ? `Round ${view.round}` : 'Set-up'}${view.turnLimit ? ` of ${view.turnLimit}` : ''} · ${pretty(view.phase.toLowerCase())}${view.activeSeat ? ` · ${pretty(view.activeSeat)} to play` : ''}`,
      ...players.map((p) => `${game.seats.find((x) => x.id === p.seat)?.name ?? p.seat}: ${p.faction}, ${p.corner} corner, ${p.citiesControlled} cities${p.out ? ', out' : ''}${p.reserve.length ? ` · to place: ${p.reserve.map((r) => `${r.count} ${r.name}`).join(', ')}` : ''}`),
    ];
  },
  render(ctx: BoardContext<ThreeKingdomsCombinedArmsView>) {
    const view = ctx.view;
    const size: number = view.size;
    const me = ctx.game.yourSeat;
    const reserve = ((view.players as { seat: string; reserve: { kind: string; name: string; count: number }[] }[]).find((p) => p.seat === me)?.reserve ?? []);
    const W = MARGIN * 2 + size * CELL;
    const perRow = Math.max(1, Math.floor((W - 2 * MARGIN + 6) / 70)); // the tray wraps at the board's width
    const trayH = reserve.length ? 18 + Math.ceil(reserve.length / perRow) * 46 : 0;
    const svg = s('svg', { viewBox: `0 0 ${W} ${W + trayH}`, class: 'board-svg', role: 'group', 'aria-label': 'Three Kingdoms board' });
    const terrain = new Map((view.terrain as { square: string; kind: string; controller: string | null }[]).map((t) => [t.square, t]));
    const xy = (sq: string) => ({ x: MARGIN + colOf(sq) * CELL, y: MARGIN + (size - rowOf(sq)) * CELL });
    for (let c = 0; c < size; c++) {
      svg.append(s('text', { x: MARGIN + c * CELL + CELL / 2, y: 15, class: 'coord', 'text-anchor': 'middle' }, String.fromCharCode(65 + c)));
      svg.append(s('text', { x: 11, y: MARGIN + c * CELL + CELL / 2 + 4, class: 'coord', 'text-anchor': 'middle' }, String(size - c)));
    }
    for (let c = 0; c < size; c++) {
      for (let r = 1; r <= size; r++) {
        const sq = `${String.fromCharCode(65 + c)}${r}`;
        const { x, y } = xy(sq);
        const t = terrain.get(sq);
        const dest = ctx.destinations.has(sq);
        const g = s('g', { class: `square${dest ? ' dest' : ''}${ctx.inspected === sq ? ' inspected' : ''}`, 'data-place': sq });
        g.append(s('rect', { x, y, width: CELL, height: CELL, fill: t ? TERRAIN_FILL[t.kind] ?? '#eee' : (c + r) % 2 ? '#f7fafc' : '#edf2f7', stroke: '#a0aec0', 'stroke-width': 0.5 }));
        if (t?.kind === 'city') g.append(s('rect', { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, fill: 'none', stroke: t.controller ? seatColour(t.controller) : '#b7791f', 'stroke-width': 2.5, rx: 3 }));
        if (t) g.append(s('text', { x: x + 3, y: y + CELL - 4, class: 'terrain-glyph' }, t.kind === 'city' ? 'city' : t.kind === 'forest' ? 'forest' : 'mtn'));
        svgButton(g, `${this.placeLabel(view, sq)}${dest ? ' — a destination' : ''}`, () => ctx.clickPlace(sq));
        svg.append(g);
      }
    }
    for (const u of units(view)) {
      const { x, y } = xy(u.square);
      const can = ctx.selectable.has(u.id);
      const g = s('g', { class: `piece${ctx.selection === u.id ? ' selected' : ''}${can ? ' can' : ''}${ctx.destinations.has(u.square) ? ' target' : ''}`, 'data-piece': u.id });
      const colour = seatColour(u.seat);
      g.append(s('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL / 2 - 5, fill: colour, stroke: '#1a202c', 'stroke-width': u.moved || u.attacked ? 0.5 : 1.5, opacity: u.moved && u.attacked ? 0.75 : 1 }));
      g.append(s('text', { x: x + CELL / 2, y: y + CELL / 2 + 4, class: 'unit-abbr', 'text-anchor': 'middle' }, ABBR[u.kind] ?? u.kind.slice(0, 2)));
      if (u.damage) g.append(s('text', { x: x + CELL - 4, y: y + 11, class: 'damage', 'text-anchor': 'end' }, `-${u.damage}`));
      svgButton(g, this.pieceLabel(view, u.id), () => ctx.clickPiece(u.id, u.square));
      svg.append(g);
    }
    if (reserve.length) {
      svg.append(s('text', { x: MARGIN, y: W + 8, class: 'tray-title' }, 'To place — pick one, then a highlighted square:'));
      reserve.forEach((r, i) => {
        const key = `reserve:${r.kind}`;
        const can = ctx.selectable.has(key);
        const x = MARGIN + (i % perRow) * 70, y = W + 16 + Math.floor(i / perRow) * 46;
        const g = s('g', { class: `piece${ctx.selection === key ? ' selected' : ''}${can ? ' can' : ''}`, 'data-piece': key });
        g.append(s('rect', { x, y, width: 64, height: 40, rx: 5, fill: seatColour(me), opacity: can ? 1 : 0.5 }));
        g.append(s('text', { x: x + 32, y: y + 17, class: 'unit-abbr', 'text-anchor': 'middle' }, ABBR[r.kind] ?? r.kind));
        g.append(s('text', { x: x + 32, y: y + 33, class: 'tray-count', 'text-anchor': 'middle' }, `×${r.count}`));
        if (can) svgButton(g, `${r.name}: ${r.count} to place`, () => ctx.clickPiece(key, null));
        svg.append(g);
      });
    }
    return svg;
  },
};
