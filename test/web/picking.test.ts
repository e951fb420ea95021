/**
 * What a click on the board means (web/src/picking.ts), without a browser: a piece, then a
 * place; a place alone; a click that could mean two commands; a piece without commands.
 */
import { describe, expect, it } from 'vitest';
import type { Command, View } from '../../web/src/api.ts';
import type { Board } from '../../web/src/boards/types.ts';
import { Picking } from '../../web/src/picking.ts';

// Commands name their piece `unit` and their place `to`; `dig` acts on a place alone.
const board = {
  pieceOf: (c: Command) => (typeof c.unit === 'string' ? c.unit : null),
  placeOf: (c: Command) => (typeof c.to === 'string' ? c.to : null),
  piecesAt: (_v: View, place: string) => (place === 'B' ? [{ key: 'scout', label: 'Scout' }] : []),
} as unknown as Board;
const view = {} as View;
const move = (unit: string, to: string, how = 'walk'): Command => ({ type: 'move', unit, to, how });
const dig = (to: string): Command => ({ type: 'dig', to });

describe('picking on the board', () => {
  it('a piece, then a highlighted place, is that move', () => {
    const p = new Picking(board);
    const commands = [move('scout', 'A'), move('scout', 'C'), move('knight', 'A')];
    expect(p.clickPiece(commands, view, 'scout', 'B')).toBeNull();
    expect(p.selection).toBe('scout');
    expect([...p.targets(commands, view).destinations].sort()).toEqual(['A', 'C']);
    expect(p.clickPlace(commands, view, 'C')).toEqual(move('scout', 'C'));
  });

  it('a place alone acts when nothing there can be picked; two commands for one click ask which', () => {
    const p = new Picking(board);
    expect(p.clickPlace([dig('A')], view, 'A')).toEqual(dig('A'));
    const twice = [move('scout', 'A', 'walk'), move('scout', 'A', 'ride')];
    p.clickPiece(twice, view, 'scout', 'B');
    expect(p.clickPlace(twice, view, 'A')).toBeNull();
    expect(p.choice).toEqual(twice);
  });

  it('a piece without commands is inspected, not selected; a second click on a piece lets it go', () => {
    const p = new Picking(board);
    const commands = [move('scout', 'A')];
    p.clickPiece(commands, view, 'knight', 'D');
    expect([p.selection, p.inspected]).toEqual([null, 'D']);
    p.clickPiece(commands, view, 'scout', 'B');
    p.clickPiece(commands, view, 'scout', 'B');
    expect(p.selection).toBeNull();
    // A place holding a piece that can move is inspected, not acted on.
    expect(p.clickPlace([...commands, dig('B')], view, 'B')).toBeNull();
    expect(p.inspected).toBe('B');
  });
});
