import { h } from '../dom.ts';
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

/** A game this client has no drawing for: its view as text, every command in the list. */
const generic: Board = {
  pieceOf: () => null,
  placeOf: () => null,
  render: (ctx) => h('pre', { class: 'generic-view' }, JSON.stringify(ctx.view, null, 2)),
  pieceLabel: (_v, k) => k,
  placeLabel: (_v, k) => k,
  piecesAt: () => [],
  describe: (c) => describeGeneric(c),
  formatEvent: () => null,
};

export const boardFor = (type: string): Board => BOARDS[type] ?? generic;
