/** Warchon: the seven spreads with their Capacity, and the units in them (hidden ones as markers). */
import { seatColour } from '../catalogue.ts';
import { pretty, s, svgButton } from '../dom.ts';
import type { WarchonView } from '../generated/schema.ts';
import type { Board, BoardContext } from './types.ts';

const CARD_W = 176;
const STEP = 98;
const ROW = 17;

interface Spread { number: number; name: string; terrain: string[]; capacity: number; specialRules: string; paths: number[]; neighbours: number[]; engaged: boolean; randomEventThisTurn: boolean }
interface Unit { id: string; army: string; spread: number | null; destroyed: boolean; revealed: boolean; known: boolean; name: string | null; size: number | null; as: number | null; ds: number | null; hits: number | null; maxHits: number | null; movesLeft: number | null; reserve: boolean; temporary: boolean; fightsFor: string | null }
const units = (view: WarchonView) => view.units as Unit[];
const short = (t: string, n: number) => (t.length > n ? `${t.slice(0, n - 1)}…` : t);

function unitText(u: Unit) {
  if (!u.known) return `Hidden unit (${pretty(u.army)})`;
  return `${u.name} (${pretty(u.army)}; AS ${u.as}, DS ${u.ds}, size ${u.size}, hits ${u.hits}/${u.maxHits}${u.movesLeft !== null ? `, ${u.movesLeft} moves` : ''}${u.fightsFor ? `, fights for ${pretty(u.fightsFor)}` : ''})`;
}

export const warchon: Board<WarchonView> = {
  pieceOf(c) {
    if (c.type === 'placeUnit') return `roster:${c.unit}`;
    return typeof c.unit === 'string' ? c.unit : null;
  },
  placeOf(c) {
    if (c.type === 'placeUnit') return String(c.spread);
    if (c.type === 'moveUnit' || c.type === 'retreatUnit') return String(c.to);
    return null;
  },
  pieceLabel(view, key) {
    if (key.startsWith('roster:')) return `${pretty(key.slice(7))} (to place)`;
    const u = units(view).find((x) => x.id === key);
    return u ? unitText(u) : key;
  },
  placeLabel(view, key) {
    const sp = (view.spreads as Spread[]).find((x) => String(x.number) === key);
    return sp ? `Spread ${sp.number}, ${sp.name}: ${sp.terrain.join(', ')}, Capacity ${sp.capacity}` : key;
  },
  piecesAt(view, place) {
    return units(view).filter((u) => String(u.spread) === place && !u.destroyed).map((u) => ({ key: u.id, label: unitText(u) }));
  },
  describe(c, view) {
    const n = (id: unknown) => {
      const u = units(view).find((x) => x.id === id);
      return u?.name ?? (u ? `a hidden ${pretty(u.army)} unit` : pretty(String(id)));
    };
    switch (c.type) {
      case 'placeUnit': return `Place ${pretty(String(c.unit))} in spread ${c.spread}`;
      case 'moveUnit': return `Move ${n(c.unit)} to spread ${c.to}`;
      case 'endMovement': return 'End movement';
      case 'goBerserk': return `${n(c.unit)} goes berserk`;
      case 'endStrategy': return 'End the Strategy Round';
      case 'commitNumber': return `Secretly choose ${c.number}`;
      case 'assignHit': return `Assign a hit to ${n(c.unit)}`;
      case 'chooseUnit': return `Choose ${n(c.unit)}`;
      case 'passChoice': return 'Pass';
      case 'commitToBridge': return `Commit ${n(c.unit)} to the bridge`;
      case 'crossBridge': return 'Cross the bridge';
      case 'retreatUnit': return `Retreat ${n(c.unit)} to spread ${c.to}`;
      case 'destroyUnit': return `Destroy ${n(c.unit)}`;
    }
    return pretty(c.type);
  },
  formatEvent(e, view, seatName) {
    const d = e.data;
    const n = (id: string) => {
      const u = units(view)?.find((x) => x.id === id);
      return u?.name ?? (u ? `a hidden ${pretty(u.army)} unit` : pretty(id));
    };
    const list = (ids: string[]) => ids.map(n).join(', ');
    switch (e.type) {
      case 'GameSetUp': return `Numbers: ${d.numbers === 'players' ? 'chosen secretly by the players' : 'drawn by the server'}${d.turnLimit ? `; ${d.turnLimit} turns at most` : ''}.`;
      case 'UnitPlaced': return `${seatName(d.army)} placed ${d.unitType ? pretty(d.unitType) : 'a hidden unit'} in spread ${d.spread} (${d.marker}).`;
      case 'SetupFinished': return `${seatName(d.army)} finished setting up.`;
      case 'TurnBegan': return `Turn ${d.turn}: ${seatName(d.army)} attacks.`;
      case 'UnitMoved': return `${n(d.unit)} moved from spread ${d.from} to ${d.to}${d.stopped ? ' and stopped' : ''}.`;
      case 'UnitShifted': return `${n(d.unit)} shifted.`;
      case 'MovementEnded': return `${seatName(d.army)} ended movement.`;
      case 'BattleBegan': return `Battle in spread ${d.spread}: ${seatName(d.attacker)} against ${seatName(d.defender)}.`;
      case 'StrategyRoundBegan': return `Strategy Round in spread ${d.spread}.`;
      case 'BerserkDeclared': return `${n(d.unit)} goes berserk (×${d.multiplier}).`;
      case 'StrategyEnded': return `${seatName(d.army)} ended the Strategy Round.`;
      case 'NumberCalled': return `A number is called (${d.purpose}).`;
      case 'NumberCommitted': return `${seatName(d.army)} chose a secret number${d.number !== null && d.number !== undefined ? `: ${d.number}` : ''}.`;
      case 'NumberGenerated': return `The number is ${d.value ?? d.number ?? '?'}${d.purpose ? ` (${d.purpose})` : ''}.`;
      case 'RandomEventDrawn': return `Random event in spread ${d.spread}: ${d.name}.`;
      case 'CombatEnded': return `Combat in spread ${d.spread} ends: ${d.reason}.`;
      case 'HitsToAssign': return `Hits to assign: ${seatName('azuthkan')} ${d.hits.azuthkan}, ${seatName('celestine')} ${d.hits.celestine} (${d.cause}).`;
      case 'HitAssigned': return `${n(d.unit)} takes a hit${d.destroyed ? ' and is destroyed' : ''}.`;
      case 'UnitHit': return `${n(d.unit)} is hit (${d.cause})${d.destroyed ? ' and destroyed' : ''}.`;
      case 'UnitDestroyed': return `${n(d.unit)} is destroyed (${d.cause}).`;
      case 'Engaged': return `Spread ${d.spread} is Engaged.`;
      case 'RandomEventTriggered': return `Number ${d.number} in spread ${d.spread} triggers a random event.`;
      case 'EventResolved': return `The random event is resolved${d.endsCombat ? ': it ends the combat' : d.useOriginalNumber ? ': the original number stands' : ''}.`;
      case 'CombatResolved': return `Combat in spread ${d.spread}: attack ${d.attackTotal} against defense ${d.defenseTotal} (difference ${d.difference}), number ${d.number}: result ${d.result}.`;
      case 'CSModified': return `${list(d.units)}: ${d.stat} ${d.op === 'add' ? `${d.value >= 0 ? '+' : ''}${d.value}` : d.op === 'set' ? `set to ${d.value}` : `×${d.value}`} (${d.reason}).`;
      case 'CSHalved': return `Combat strengths in spread ${d.spread} are halved.`;
      case 'ChoicesOffered': return `A choice in spread ${d.spread} (${pretty(d.purpose).toLowerCase()}) for ${(d.choices as { seat: string }[]).map((c) => seatName(c.seat)).join(', ') || 'nobody'}.`;
      case 'UnitChosen': return `${seatName(d.seat)} chose ${n(d.unit)} (${pretty(d.purpose).toLowerCase()}).`;
      case 'ChoicePassed': return `${seatName(d.seat)} passed (${pretty(d.purpose).toLowerCase()}).`;
      case 'ReserveJoined': return `A reserve unit joins the battle in spread ${d.spread} from spread ${d.from}.`;
      case 'ElementalJoined': return `${n(d.unit)} joins ${seatName(d.army)} in spread ${d.spread}.`;
      case 'UnitBribed': return `${n(d.unit)} is bribed: it fights for ${seatName(d.fightsFor)}.`;
      case 'BridgeOffered': return `${seatName(d.army)} may cross the bridge in spread ${d.spread}.`;
      case 'UnitCommittedToBridge': return `${n(d.unit)} is committed to the bridge.`;
      case 'BridgeCrossed': return `The bridge in spread ${d.spread} is crossed by ${list(d.committed) || 'nobody'}.`;
      case 'RiversFury': return `The river's fury: ${(d.picks as { army: string; roll: number; unit: string }[]).map((p) => `${seatName(p.army)} rolls ${p.roll}, ${n(p.unit)}`).join('; ')}.`;
      case 'RetreatsOrdered': return `Retreats ordered (${d.cause}): ${list((d.retreats as { unit: string }[]).map((r) => r.unit))}.`;
      case 'UnitRetreated': return `${n(d.unit)} retreated from spread ${d.from} to ${d.to}.`;
      case 'CapacityExceeded': return `${seatName(d.army)} exceeds the Capacity of spread ${d.spread} (${d.capacity}${d.aerial ? ', aerial units' : ''}).`;
      case 'BattleEnded': return `The battle in spread ${d.spread} is over.`;
      case 'TurnEnded': return `Turn ${d.turn} of ${seatName(d.army)} ends.`;
    }
    return null;
  },
  summary(view) {
    const b = view.battle;
    return [
      `${view.phase}${view.turnLimit ? ` · turn ${view.turn} of ${view.turnLimit}` : ''} · numbers ${view.numbers === 'players' ? 'chosen by the players' : 'drawn by the server'}`,
      ...(view.unplaced as { army: string; count: number }[]).filter((u) => u.count).map((u) => `${pretty(u.army)}: ${u.count} units still to place`),
      ...(b ? [`Battle in spread ${b.spread} (${b.step})${b.numberCall ? ` · secret numbers in: ${b.numberCall.committed.map(pretty).join(', ') || 'none'}${b.numberCall.yourNumber ? ` · yours: ${b.numberCall.yourNumber}` : ''}` : ''}${b.lastNumber ? ` · last number ${b.lastNumber.value}` : ''}${b.randomEvent ? ` · event: ${b.randomEvent}` : ''}`] : []),
    ];
  },
  render(ctx: BoardContext<WarchonView>) {
    const view = ctx.view;
    const spreads = view.spreads as Spread[];
    const live = units(view).filter((u) => !u.destroyed && u.spread !== null);
    const maxUnits = Math.max(3, ...spreads.map((sp) => live.filter((u) => u.spread === sp.number).length));
    const cardH = 62 + maxUnits * ROW;
    // Desktop: spreads left to right in a zigzag; a phone: top to bottom.
    const narrow = window.innerWidth < 700;
    const pos = (n: number) => (narrow ? { x: 10 + ((n - 1) % 2) * (CARD_W + 24), y: 10 + (n - 1) * (cardH / 2 + 22) } : { x: 10 + (n - 1) * STEP, y: 10 + ((n - 1) % 2) * (cardH + 40) });
    const width = narrow ? 20 + 2 * CARD_W + 24 : 20 + (spreads.length - 1) * STEP + CARD_W;
    const roster = ((view.unplaced as { army: string; units: string[] | null }[]).find((u) => u.army === view.viewer)?.units ?? []);
    const trayTop = narrow ? pos(spreads.length).y + cardH + 20 : 20 + 2 * cardH + 40;
    const trayH = roster.length ? 30 + Math.ceil(roster.length / (narrow ? 2 : 4)) * 24 : 0;
    const svg = s('svg', { viewBox: `0 0 ${width} ${trayTop + trayH}`, class: 'board-svg', role: 'group', 'aria-label': 'Warchon spreads' });
    const mid = (n: number) => ({ x: pos(n).x + CARD_W / 2, y: pos(n).y + cardH / 2 });
    const drawn = new Set<string>();
    for (const sp of spreads) for (const nb of sp.neighbours) {
      const key = [sp.number, nb].sort().join('-');
      if (drawn.has(key) || !spreads.some((x) => x.number === nb)) continue;
      drawn.add(key);
      const a = mid(sp.number), b = mid(nb);
      svg.append(s('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: sp.paths.includes(nb) ? 'edge path' : 'edge' }));
    }
    for (const sp of spreads) {
      const { x, y } = pos(sp.number);
      const key = String(sp.number);
      const dest = ctx.destinations.has(key);
      const here = live.filter((u) => u.spread === sp.number);
      const battle = view.battle?.spread === sp.number;
      const g = s('g', { class: `spread${dest ? ' dest' : ''}${ctx.inspected === key ? ' inspected' : ''}`, 'data-place': key });
      g.append(s('rect', { x, y, width: CARD_W, height: cardH, rx: 8, class: 'space-box', fill: battle ? '#fff5f5' : '#fffaf0', stroke: battle ? '#c53030' : '#a0aec0', 'stroke-width': battle ? 3 : 1.5 }));
      g.append(s('text', { x: x + 8, y: y + 17, class: 'space-name' }, short(`${sp.number}. ${sp.name}`, 22)));
      g.append(s('text', { x: x + 8, y: y + 33, class: 'space-tags' }, short(sp.terrain.join(', '), 30)));
      const used = here.reduce((n, u) => n + (u.size ?? 1), 0);
      g.append(s('text', { x: x + CARD_W - 8, y: y + 49, class: 'capacity', 'text-anchor': 'end' }, `Capacity ${sp.capacity}`));
      g.append(s('text', { x: x + 8, y: y + 49, class: 'space-tags' }, [sp.engaged && 'Engaged', sp.randomEventThisTurn && 'event', here.some((u) => !u.known) ? '' : here.length ? `size ${used}` : ''].filter(Boolean).join(' · ')));
      svgButton(g, `${this.placeLabel(view, key)}; ${here.length} units${dest ? ' — a destination' : ''}`, () => ctx.clickPlace(key));
      svg.append(g);
      here.forEach((u, i) => svg.append(marker(ctx, u, x + 6, y + 56 + i * ROW, CARD_W - 12, key)));
    }
    if (roster.length) {
      svg.append(s('text', { x: 10, y: trayTop + 14, class: 'tray-title' }, 'Your units to place (secretly) — pick one, then a highlighted spread:'));
      roster.forEach((r, i) => {
        const key = `roster:${r}`;
        const can = ctx.selectable.has(key);
        const perRow = narrow ? 2 : 4;
        const x = 10 + (i % perRow) * (CARD_W + 8), y = trayTop + 22 + Math.floor(i / perRow) * 24;
        const g = s('g', { class: `piece${can ? ' can' : ''}${ctx.selection === key ? ' selected' : ''}`, 'data-piece': key });
        g.append(s('rect', { x, y, width: CARD_W, height: 20, rx: 3, fill: seatColour(view.viewer) }));
        g.append(s('text', { x: x + 5, y: y + 14, class: 'piece-text', fill: '#fff' }, pretty(r).slice(0, 26)));
        if (can) svgButton(g, `${pretty(r)}: to place`, () => ctx.clickPiece(key, null));
        svg.append(g);
      });
    }
    return svg;
  },
};

function marker(ctx: BoardContext<WarchonView>, u: Unit, x: number, y: number, w: number, place: string) {
  const can = ctx.selectable.has(u.id);
  const g = s('g', { class: `piece${can ? ' can' : ''}${ctx.selection === u.id ? ' selected' : ''}${ctx.destinations.has(place) ? '' : ''}`, 'data-piece': u.id });
  const colour = seatColour(u.army);
  g.append(s('rect', { x, y, width: w, height: ROW - 2, rx: 3, fill: u.known ? colour : '#fff', stroke: colour, 'stroke-width': 1.5, 'stroke-dasharray': u.known ? null : '3 2' }));
  const label = u.known ? short(`${u.name}`, 17) : 'Hidden unit';
  g.append(s('text', { x: x + 4, y: y + 11.5, class: 'piece-text', fill: u.known ? '#fff' : colour }, label));
  if (u.known) g.append(s('text', { x: x + w - 4, y: y + 11.5, class: 'piece-text', fill: '#fff', 'text-anchor': 'end' }, `${u.as}/${u.ds} ${'●'.repeat(Math.max(0, u.hits ?? 0))}`));
  svgButton(g, unitText(u), () => ctx.clickPiece(u.id, place));
  return g;
}
