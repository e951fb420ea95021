/** A mail's lines as one seat's orders: numbers, notation, JSON; in order, all or none. */
import { describe, expect, it } from 'vitest';
import { applyOrders, readOrderLines, type Validate } from '../../../src/app/mail/index.ts';
import { games } from '../../../src/domain/games.ts';
import { GameRegistry, legalOrders } from '../../../src/domain/kernel/index.ts';
import { newGame, status, submit } from '../../support/play.ts';

const raid = games.find((g) => g.id === 'raid-on-wuchao')!;
const registry = new GameRegistry(games);
const validate: Validate = (c) => registry.validateCommand(raid.id, c);

/** A Raid game after Yuan's setup, Cao to move. */
function caoToMove() {
  const g = newGame(raid, {}, ['cao', 'yuan'], 'mail-orders');
  while (status(g).stage === 'SETUP') submit(g, 'yuan', legalOrders(raid, g.state, 'yuan')[0]!.command);
  return g;
}

describe('readOrderLines', () => {
  it('tells numbers, JSON and notation apart', () => {
    expect(readOrderLines(['2.', '{"type":"resign"}', 'end movement'])).toEqual({
      ok: true,
      orders: [
        { kind: 'number', number: 2, line: '2.' },
        { kind: 'json', command: { type: 'resign' }, line: '{"type":"resign"}' },
        { kind: 'notation', line: 'end movement' },
      ],
    });
  });

  it('reads a number only as the first order', () => {
    expect(readOrderLines(['end movement', '3'])).toMatchObject({ ok: false, index: 1, line: '3', reason: expect.stringContaining('only read as the first order') });
  });

  it('refuses broken JSON and a mail without orders', () => {
    expect(readOrderLines(['{"type": '])).toMatchObject({ ok: false, index: 0, reason: expect.stringContaining('not valid JSON') });
    expect(readOrderLines([])).toMatchObject({ ok: false, reason: expect.stringContaining('no orders') });
  });
});

describe('applyOrders', () => {
  it('applies a number from the list answered, then notation, then JSON, in words for the answer', () => {
    const g = caoToMove();
    const listed = legalOrders(raid, g.state, 'cao');
    const first = listed[0]!;
    expect(first.notation).toMatch(/^move /);
    const out = applyOrders(raid, g.state, 'cao', ['1', 'end movement'], listed, validate, { seed: g.seed });
    expect(out.ok, JSON.stringify(out)).toBe(true);
    if (!out.ok) return;
    expect(out.commands).toEqual([first.command, { type: 'endMovement' }]);
    expect(out.orders.map((o) => o.text)).toEqual([first.text, 'End your movement']);
    expect(out.status.awaiting.every((p) => p.seat !== 'cao' || p.kind !== 'MOVE')).toBe(true);
  });

  it('reads each line on the position the lines before it left', () => {
    const g = caoToMove();
    const out = applyOrders(raid, g.state, 'cao', ['move xu-chu A1 B1', 'move xu-chu B1 C1', '{"type":"endMovement"}'], [], validate, { seed: g.seed });
    expect(out.ok, JSON.stringify(out)).toBe(true);
    if (out.ok) expect(out.orders.map((o) => o.text)).toEqual(['Move Xu Chu from A1 to B1', 'Move Xu Chu from B1 to C1', 'End your movement']);
  });

  it('applies nothing when one order is refused: which one, the line, why', () => {
    const g = caoToMove();
    const out = applyOrders(raid, g.state, 'cao', ['move xu-chu A1 B1', 'move xu-chu B1 H2', 'end movement'], [], validate, { seed: g.seed });
    // Not connected: the notation reads it, the rules refuse it with their reason.
    expect(out).toMatchObject({ ok: false, code: 'ILLEGAL_COMMAND', index: 1, line: 'move xu-chu B1 H2', reason: expect.stringContaining('not connected') });
    // A stale from-space: the notation refuses it rather than move another way.
    const stale = applyOrders(raid, g.state, 'cao', ['move xu-chu A1 B1', 'move xu-chu A1 B2'], [], validate, { seed: g.seed });
    expect(stale).toMatchObject({ ok: false, code: 'BAD_REQUEST', index: 1, reason: expect.stringContaining('Xu Chu is in B1, not A1') });
  });

  it('checks a JSON command against the game’s schema before the rules see it', () => {
    const g = caoToMove();
    const out = applyOrders(raid, g.state, 'cao', ['{"type":"move","unit":"xu-chu"}'], [], validate, { seed: g.seed });
    expect(out).toMatchObject({ ok: false, code: 'BAD_REQUEST', index: 0, reason: expect.stringContaining('to') });
  });

  it('refuses a number that is not in the list', () => {
    const g = caoToMove();
    const listed = legalOrders(raid, g.state, 'cao');
    expect(applyOrders(raid, g.state, 'cao', [String(listed.length + 1)], listed, validate, { seed: g.seed })).toMatchObject({
      ok: false,
      code: 'BAD_REQUEST',
      reason: `There is no order ${listed.length + 1}: the list goes from 1 to ${listed.length}`,
    });
  });

  it('refuses orders of the seat the game does not wait for', () => {
    const g = caoToMove();
    expect(applyOrders(raid, g.state, 'yuan', ['end movement'], [], validate, { seed: g.seed })).toMatchObject({ ok: false, code: 'NOT_YOUR_TURN', index: 0 });
  });
});
