/** Raid on Wuchao: the map of spaces and connections, each token full or reduced in its space. */
import type { Command } from '../api.ts';
import { seatColour } from '../catalogue.ts';
import { pretty, s, svgButton } from '../dom.ts';
import type { RaidOnWuchaoView } from '../generated/schema.ts';
import type { Board, BoardContext } from './types.ts';

// Wide enough for the longest unit name beside its factors at 11 px ("Granary Guard 1-6-1").
const BOX_W = 160;
const ROW_H = 18;
const COL_GAP = 34;
const ROW_GAP = 24;

interface Space { id: string; control: string | null; defenseBonus: number; printedDefenseBonus: number; granary: boolean; camp: boolean; victory: boolean; units: string[] }
interface Unit { id: string; name: string; side: string; space: string | null; state: string; attack: number | null; attackIsDie: boolean; defense: number; move: number; movementLeft: number; special: boolean }

/** Spaces named like A1 (zone letter, number) stand in columns by zone; other maps in a circle. */
function layout(spaces: Space[], boxH: number): { pos: Record<string, { x: number; y: number }>; width: number; height: number } {
  const pos: Record<string, { x: number; y: number }> = {};
  if (spaces.every((sp) => /^[A-Z][0-9]+$/.test(sp.id))) {
    const zones = [...new Set(spaces.map((sp) => sp.id[0]!))].sort();
    const per = zones.map((z) => spaces.filter((sp) => sp.id[0] === z).sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1))));
    const tallest = Math.max(...per.map((p) => p.length));
    if (narrow()) {
      // A phone: zones run down the screen, A at the top.
      const width = tallest * (BOX_W + 16) - 16 + 40;
      per.forEach((row, i) => {
        const left = (width - (row.length * (BOX_W + 16) - 16)) / 2;
        row.forEach((sp, j) => (pos[sp.id] = { x: left + j * (BOX_W + 16), y: 20 + i * (boxH + ROW_GAP) }));
      });
      return { pos, width, height: 40 + zones.length * (boxH + ROW_GAP) - ROW_GAP };
    }
    const height = tallest * (boxH + ROW_GAP) - ROW_GAP + 40;
    per.forEach((col, i) => {
      const top = (height - (col.length * (boxH + ROW_GAP) - ROW_GAP)) / 2;
      col.forEach((sp, j) => (pos[sp.id] = { x: 20 + i * (BOX_W + COL_GAP), y: top + j * (boxH + ROW_GAP) }));
    });
    return { pos, width: 40 + zones.length * (BOX_W + COL_GAP) - COL_GAP, height };
  }
  const r = Math.max(200, (spaces.length * (BOX_W + 20)) / (2 * Math.PI));
  spaces.forEach((sp, i) => {
    const a = (2 * Math.PI * i) / spaces.length - Math.PI / 2;
    pos[sp.id] = { x: r + 20 + r * Math.cos(a), y: r * 0.6 + 20 + r * 0.6 * Math.sin(a) };
  });
  return { pos, width: 2 * r + BOX_W + 40, height: 1.2 * r + boxH + 40 };
}

const units = (view: RaidOnWuchaoView) => view.units as Unit[];
const narrow = () => window.innerWidth < 700;
const unit = (view: RaidOnWuchaoView, id: string) => units(view).find((u) => u.id === id);
const stats = (u: Unit) => `${u.attackIsDie ? 'D6' : u.attack}-${u.defense}-${u.move}`;

export const raidOnWuchao: Board<RaidOnWuchaoView> = {
  pieceOf(c) {
    return typeof c.unit === 'string' ? c.unit : null;
  },
  placeOf(c) {
    if (c.type === 'stepBack') return null;
    return typeof c.to === 'string' ? c.to : typeof c.space === 'string' ? c.space : null;
  },
  pieceLabel(view, key) {
    const u = unit(view, key);
    return u ? `${u.name} (${u.state}, ${stats(u)})` : key;
  },
  placeLabel(view, key) {
    const sp = (view.spaces as Space[]).find((x) => x.id === key);
    if (!sp) return key;
    const tags = [sp.camp && 'camp', sp.granary && 'granary', sp.defenseBonus && `+${sp.defenseBonus} defense`, sp.control && `held by ${pretty(sp.control)}`].filter(Boolean);
    return `${key}${tags.length ? ` (${tags.join(', ')})` : ''}`;
  },
  piecesAt(view, place) {
    return units(view).filter((u) => u.space === place && u.state !== 'destroyed').map((u) => ({ key: u.id, label: this.pieceLabel(view, u.id) }));
  },
  describe(c, view) {
    const n = (id: unknown) => unit(view, String(id))?.name ?? String(id);
    switch (c.type) {
      case 'placeUnit': return `Place ${n(c.unit)} in ${c.space}`;
      case 'move': return `Move ${n(c.unit)} to ${c.to}`;
      case 'stepBack': return `Step ${n(c.unit)} back`;
      case 'endMovement': return 'End movement';
      case 'reroll': return 'Reroll with a Xu You token';
      case 'acceptRoll': return 'Accept the roll';
      case 'allocateDamage': return `Take the damage on ${(c.units as string[]).map(n).join(', ') || 'nobody'}`;
      case 'deploy': return `Deploy: ${(c.placements as { unit: string; space: string }[]).map((p) => `${n(p.unit)} in ${p.space}`).join(', ')}`;
      case 'withdraw': return `Withdraw: ${(c.withdrawals as { unit: string; to: string | null }[]).map((w) => `${n(w.unit)} to ${w.to ?? 'destruction'}`).join(', ')}`;
    }
    return pretty(c.type);
  },
  formatEvent(e, view, seatName) {
    const d = e.data;
    const n = (id: string) => unit(view, id)?.name ?? id;
    switch (e.type) {
      case 'CaoForcesPlaced': return `Cao's forces set up in ${d.space}: ${d.units.map(n).join(', ')}.`;
      case 'UnitPlaced': return `${n(d.unit)} set up in ${d.space}.`;
      case 'SetupCompleted': return `Set-up complete; round ${d.round} begins.`;
      case 'UnitMoved': return `${n(d.unit)} moved ${d.from} → ${d.to}${d.entersEnemy ? ' (into the enemy)' : ''}.`;
      case 'MovementEnded': return `${pretty(d.side)} ended movement.`;
      case 'UnitSteppedBack': return `${n(d.unit)} stepped back ${d.from} → ${d.to}.`;
      case 'CombatPhaseBegan': return `${pretty(d.side)} combat: ${d.combats.length ? d.combats.join(', ') : 'no battles'}.`;
      case 'GranariesRaided': return `The granaries are raided (${d.space})!`;
      case 'CombatBegan': return `Battle in ${d.space}: ${d.attackers.map(n).join(', ')} attack ${d.defenders.map(n).join(', ')} (defense ${d.defense}).`;
      case 'DieRolled': return `Rolled ${d.roll} (${d.die === 'combat' ? 'combat die' : n(d.die)}).`;
      case 'XuYouRerolled': return `Xu You reroll: ${d.previous} → ${d.roll} (${d.tokensLeft} left).`;
      case 'RollAccepted': return `Roll of ${d.roll} accepted.`;
      case 'CombatResolved': return `Attack ${d.attackTotal} against defense ${d.defense}: ${d.damage} damage.`;
      case 'DamageAllocated': return `Damage in ${d.space}: ${[...d.flipped.map((u: string) => `${n(u)} reduced`), ...d.destroyed.map((u: string) => `${n(u)} destroyed`)].join(', ') || 'none'}.`;
      case 'CaoCaoDestroyed': return `Cao Cao is destroyed in ${d.space}!`;
      case 'AssaultSucceeded': return `${pretty(d.side)} take ${d.space}.`;
      case 'AssaultFailed': return `The assault on ${d.space} failed.`;
      case 'CombatPhaseEnded': return `${pretty(d.side)} combat over.`;
      case 'VictoryChecked': return d.winner ? `Victory check: ${seatName(d.winner)} wins — ${d.reason}.` : `Victory check, round ${d.round}: no winner yet.`;
      case 'RoundAdvanced': return `Round ${d.round} begins.`;
    }
    return null;
  },
  summary(view) {
    const c = view.combat;
    return [
      `Round ${view.round ?? '–'} of ${view.rounds} · ${view.phase} · Xu You tokens: ${view.xuYouTokens}${view.granariesRaided ? ' · granaries raided' : ''}`,
      ...(c ? [`Battle in ${c.space}: attack ${c.attackTotal ?? '?'} vs defense ${c.defense}; dice ${c.dice.map((d) => `${d.label} ${d.roll ?? '–'}`).join(', ')}`] : []),
    ];
  },
  render(ctx: BoardContext<RaidOnWuchaoView>) {
    const view = ctx.view;
    const spaces = view.spaces as Space[];
    const maxUnits = Math.max(3, ...spaces.map((sp) => sp.units.length));
    const boxH = 26 + maxUnits * ROW_H;
    const { pos, width, height } = layout(spaces, boxH);
    const offBoard = units(view).filter((u) => u.space === null && u.state !== 'destroyed');
    // The tray wraps at the map's width (a phone's map is two boxes wide).
    const perRow = Math.max(1, Math.min(4, Math.floor((width - 30) / (BOX_W + 10))));
    const trayH = offBoard.length ? 30 + Math.ceil(offBoard.length / perRow) * 22 : 0;
    const svg = s('svg', { viewBox: `0 0 ${width} ${height + trayH}`, class: 'board-svg', role: 'group', 'aria-label': 'Raid on Wuchao map' });
    const centre = (id: string) => ({ x: pos[id]!.x + BOX_W / 2, y: pos[id]!.y + boxH / 2 });
    for (const [a, b] of view.connections as [string, string][]) {
      if (!pos[a] || !pos[b]) continue;
      const p = centre(a), q = centre(b);
      svg.append(s('line', { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: 'edge' }));
    }
    for (const sp of spaces) {
      const { x, y } = pos[sp.id]!;
      const dest = ctx.destinations.has(sp.id);
      const g = s('g', { class: `space${dest ? ' dest' : ''}${ctx.inspected === sp.id ? ' inspected' : ''}`, 'data-place': sp.id });
      g.append(s('rect', { x, y, width: BOX_W, height: boxH, rx: 8, class: 'space-box', fill: sp.granary ? '#fefcbf' : sp.camp ? '#e2e8f0' : '#fffaf0', stroke: sp.control ? seatColour(sp.control) : '#a0aec0', 'stroke-width': sp.control ? 3 : 1.5 }));
      g.append(s('text', { x: x + 8, y: y + 17, class: 'space-name' }, sp.id));
      const tags = [sp.camp && 'camp', sp.granary && (view.granariesRaided ? 'raided' : 'granary'), sp.defenseBonus ? `+${sp.defenseBonus}` : ''].filter(Boolean).join(' ');
      g.append(s('text', { x: x + BOX_W - 8, y: y + 17, class: 'space-tags', 'text-anchor': 'end' }, tags));
      svgButton(g, `${this.placeLabel(view, sp.id)}${dest ? ' — a destination' : ''}`, () => ctx.clickPlace(sp.id));
      svg.append(g);
      sp.units.forEach((id, i) => {
        const u = unit(view, id);
        if (u) svg.append(token(ctx, u, x + 6, y + 24 + i * ROW_H, BOX_W - 12, sp.id, this.pieceLabel(view, id)));
      });
    }
    if (offBoard.length) {
      svg.append(s('text', { x: 20, y: height + 16, class: 'tray-title' }, 'Not yet on the map'));
      offBoard.forEach((u, i) => svg.append(token(ctx, u, 20 + (i % perRow) * (BOX_W + 10), height + 24 + Math.floor(i / perRow) * 22, BOX_W, null, this.pieceLabel(view, u.id))));
    }
    return svg;
  },
};

const short = (t: string, n: number) => (t.length > n ? `${t.slice(0, n - 1)}…` : t);

function token(ctx: BoardContext<RaidOnWuchaoView>, u: Unit, x: number, y: number, w: number, place: string | null, label: string) {
  const selected = ctx.selection === u.id;
  const can = ctx.selectable.has(u.id);
  const g = s('g', { class: `piece${selected ? ' selected' : ''}${can ? ' can' : ''}`, 'data-piece': u.id });
  const colour = seatColour(u.side);
  g.append(s('rect', { x, y, width: w, height: ROW_H - 2, rx: 3, fill: u.state === 'reduced' ? '#fff' : colour, stroke: colour, 'stroke-width': 1.5, 'stroke-dasharray': u.state === 'reduced' ? '3 2' : null }));
  g.append(s('text', { x: x + 4, y: y + 11.5, class: 'piece-text', fill: u.state === 'reduced' ? colour : '#fff' }, short(`${u.special ? '★ ' : ''}${u.name}`, Math.floor((w - 14) / 6.6) - stats(u).length)));
  g.append(s('text', { x: x + w - 4, y: y + 11.5, class: 'piece-text', 'text-anchor': 'end', fill: u.state === 'reduced' ? colour : '#fff' }, stats(u)));
  if (can || place) svgButton(g, `${label}${can ? '' : ''}`, () => ctx.clickPiece(u.id, place));
  return g;
}

export type { Command };
