import { h, pretty } from '../dom.ts';
import { describeGeneric } from '../log.ts';
import { chineseWarlords } from './chinese-warlords.ts';
import { raidOnWuchao } from './raid-on-wuchao.ts';
import { threeKingdoms } from './three-kingdoms.ts';
import type { Board } from './types.ts';
import { warchon } from './warchon.ts';

const BOARDS: Record<string, Board> = {
  'raid-on-wuchao': raidOnWuchao,
  'three-kingdoms-combined-arms': threeKingdoms,
  'chinese-warlords': chineseWarlords,
  warchon,
};

/** A value of a view in words: scalars as text, lists and objects as nested lists. */
function present(value: unknown): Node | string {
  if (value === null || value === undefined) return '—';
  if (typeof value !== 'object') return String(value);
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i + 1), v] as const) : Object.entries(value).filter(([k]) => k !== '__typename' && k !== 'gameType');
  if (entries.length === 0) return '—';
  if (entries.every(([, v]) => v === null || typeof v !== 'object') && Array.isArray(value)) return value.join(', ');
  return h('dl', {}, entries.map(([k, v]) => [h('dt', {}, pretty(k)), h('dd', {}, present(v))]));
}

/**
 * A game this client has no drawing for (a game added to the service later): its view in
 * words, every command as a button (the turn bar's main actions).
 */
const generic: Board = {
  pieceOf: () => null,
  placeOf: () => null,
  render: (ctx) => {
    // A GenericView carries the game's state as JSON; a typed view is shown field by field.
    const view = ctx.view;
    return h('div', { class: 'generic-view' }, present('state' in view ? view.state : view));
  },
  pieceLabel: (_v, k) => k,
  placeLabel: (_v, k) => k,
  piecesAt: () => [],
  describe: (c) => describeGeneric(c),
  formatEvent: () => null,
};

export const boardFor = (type: string): Board => BOARDS[type] ?? generic;
