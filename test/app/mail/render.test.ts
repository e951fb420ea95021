/** The text of the mails about a game: your turn, and the answer to a mail of orders. */
import { describe, expect, it } from 'vitest';
import { answerText, applyOrders, noticeText, seatPicture, yourTurnText, type Validate } from '../../../src/app/mail/index.ts';
import { games } from '../../../src/domain/games.ts';
import { GameRegistry, legalOrders, seatName } from '../../../src/domain/kernel/index.ts';
import type { WarchonState } from '../../../src/domain/warchon/types.ts';
import { attempt, newGame, status, submit } from '../../support/play.ts';

const registry = new GameRegistry(games);
const module = (id: string) => games.find((g) => g.id === id)!;
const raid = module('raid-on-wuchao');
const validate: Validate = (c) => registry.validateCommand(raid.id, c);
const CAO = seatName(raid, 'cao');
const YUAN = seatName(raid, 'yuan');

describe('your-turn mail', () => {
  it('shows the position in words, what the game waits for and the numbered orders', () => {
    const g = newGame(raid, {}, ['cao', 'yuan'], 'render');
    const text = yourTurnText(seatPicture(raid, g.state, 'yuan'));
    const orders = legalOrders(raid, g.state, 'yuan');
    expect(text.startsWith(`Raid on Wuchao: you play ${YUAN}.\n\nSetup.\nCao: Cao Cao A1`)).toBe(true);
    expect(text).toContain('The game waits for:\n  You: Place your units');
    const width = String(orders.length).length;
    expect(text).toContain(`\n${'1'.padStart(width)}. ${orders[0]!.notation}  (${orders[0]!.text})\n`);
    expect(text).toContain(`\n${orders.length}. resign  (Resign the game)\n`);
    expect(text).toContain('A line "end" stops the reading');
  });

  it('a number the player answers with is that order of the list', () => {
    const g = newGame(raid, {}, ['cao', 'yuan'], 'render');
    const picture = seatPicture(raid, g.state, 'yuan');
    const line = yourTurnText(picture).split('\n').find((l) => /^ *3\. /.test(l))!;
    const out = applyOrders(raid, g.state, 'yuan', ['3'], picture.orders, validate, { seed: g.seed });
    expect(out.ok && out.orders[0]!.notation).toBe(line.replace(/^ *3\. /, '').replace(/ {2}\(.*\)$/, ''));
  });

  it('lists no orders to a seat whose turn it is not', () => {
    const g = newGame(raid, {}, ['cao', 'yuan'], 'render');
    const text = yourTurnText(seatPicture(raid, g.state, 'cao'));
    expect(text).toContain(`${YUAN}, to play`);
    expect(text).toContain('It is not your turn');
    expect(text).not.toMatch(/^\s*1\. /m);
  });
});

describe('answer mail', () => {
  it('says what was applied, in words, then the new position and orders', () => {
    const g = newGame(raid, {}, ['cao', 'yuan'], 'render');
    const out = applyOrders(raid, g.state, 'yuan', ['place chunyu-qiong H1', 'place sui-yuanjin H2'], [], validate, { seed: g.seed });
    if (!out.ok) throw new Error(out.reason);
    const text = answerText(seatPicture(raid, out.state, 'yuan'), { applied: out.orders });
    expect(text).toContain('Applied, in order:\n  Place Chunyu Qiong in H1 (place chunyu-qiong H1)\n  Place Sui Yuanjin in H2 (place sui-yuanjin H2)\n');
    expect(text).toContain('Yuan: Chunyu Qiong H1, Sui Yuanjin H2; to place:');
    expect(text).toContain('Your orders:');
  });

  it('says what was refused, why, and that nothing was applied; the orders again', () => {
    const g = newGame(raid, {}, ['cao', 'yuan'], 'render');
    const out = applyOrders(raid, g.state, 'yuan', ['place chunyu-qiong H1', 'fly sui-yuanjin H2'], [], validate, { seed: g.seed });
    if (out.ok) throw new Error('applied');
    const text = answerText(seatPicture(raid, g.state, 'yuan'), { refused: out });
    expect(text).toContain('Refused: order 2, "fly sui-yuanjin H2": "fly sui-yuanjin H2" is not an order of Raid on Wuchao: the orders are place <unit> <space>');
    expect(text).toContain('Nothing was applied.');
    expect(text).toContain(' 1. place ');
  });

  it('says the game is over, and lists nothing, once it is', () => {
    const g = newGame(raid, {}, ['cao', 'yuan'], 'render');
    const out = applyOrders(raid, g.state, 'yuan', ['resign'], [], validate, { seed: g.seed });
    if (!out.ok) throw new Error(out.reason);
    const text = answerText(seatPicture(raid, out.state, 'yuan'), { applied: out.orders });
    expect(text).toContain('Applied, in order:\n  Resign the game (resign)');
    expect(text).toContain(`The game is over.\n${CAO} won: ${YUAN} resigned`);
    expect(text).not.toContain('Your orders');
    expect(noticeText('Raid on Wuchao', 'This game is over.')).toBe('Raid on Wuchao.\n\nThis game is over.\nNothing was applied.\n');
  });
});

describe('Warchon mail keeps hidden things hidden', () => {
  it('never names in one army’s mail the other army’s units it has not seen fight', () => {
    const warchon = module('warchon');
    const g = newGame(warchon, {}, ['azuthkan', 'celestine'], 'render-secret');
    const texts: Record<string, string[]> = { azuthkan: [], celestine: [] };
    let checked = 0;
    for (let i = 0; i < 60 && status(g).stage !== 'FINISHED'; i++) {
      for (const seat of ['azuthkan', 'celestine']) texts[seat]!.push(yourTurnText(seatPicture(warchon, g.state, seat)));
      const seat = status(g).awaiting[0]!.seat;
      const order = legalOrders(warchon, g.state, seat).find((o) => !['resign', 'offerDraw'].includes(o.command.type))!;
      const picture = seatPicture(warchon, g.state, seat);
      const out = applyOrders(warchon, g.state, seat, [order.notation], picture.orders, (c) => registry.validateCommand('warchon', c), { seed: g.seed });
      if (!out.ok) throw new Error(out.reason);
      texts[seat]!.push(answerText(seatPicture(warchon, out.state, seat), { applied: out.orders }));
      expect(attempt(g, seat, order.command).ok).toBe(true);
      const state = g.state.game as WarchonState;
      for (const [army, other] of [
        ['azuthkan', 'celestine'],
        ['celestine', 'azuthkan'],
      ] as const) {
        // What the other army has that this one may not know: unplaced units, units not revealed,
        // by key and as the mail would label a known one ("Deathknoll Ogres (azuthkan-2)").
        const hidden = Object.values(state.units).filter((u) => u.army === other && !u.revealed && !u.destroyed);
        const secret = [...state.unplaced[other], ...hidden.map((u) => u.key), ...hidden.map((u) => `${state.types[u.type]!.name} (${u.id})`)];
        for (const key of secret) for (const text of texts[army]!) expect(text, `${army}'s mail names ${other}'s ${key}`).not.toContain(key);
        checked += secret.length;
      }
    }
    expect(checked).toBeGreaterThan(0);
    expect(texts.azuthkan!.join('\n')).toMatch(/an unknown Celestine unit \(celestine-\d+\)/);
    // A seat's own mail does name its units: the check above would see a leak.
    const own = (g.state.game as WarchonState).units;
    const mine = Object.values(own).find((u) => u.army === 'celestine')!;
    expect(texts.celestine!.join('\n')).toContain(mine.key);
    expect(texts.celestine!.join('\n')).toContain(`${(g.state.game as WarchonState).types[mine.type]!.name} (${mine.id})`);
  });
});
