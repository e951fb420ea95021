/**
 * How a game of Warchon ends while a battle's secret numbers are awaited (issue 21.2, 21.4):
 * API.md, Clocks, "ends the part of every seat whose deadline passed"; docs/api.md, a
 * finished game shows "nothing pending and nothing hidden".
 */
import { describe, expect, it } from 'vitest';
import { SYSTEM, timeOutCommand, visibleTo } from '../../../src/domain/kernel/index.ts';
import { warchon } from '../../../src/domain/warchon/index.ts';
import type { WarchonState } from '../../../src/domain/warchon/types.ts';
import { expectFinished } from '../../support/finished.ts';
import { attempt, chooser, legal, newGame, status, type Played } from '../../support/play.ts';
import { SEATS } from './helpers.ts';

/** A game played at random until both armies are asked for their secret number at once. */
function atNumberCall(seed: number): Played<WarchonState> {
  for (let s = seed; ; s++) {
    const g = newGame(warchon, { numbers: 'players' }, SEATS, `call-${s}`);
    const pick = chooser(s);
    for (let i = 0; i < 400 && status(g).stage !== 'FINISHED'; i++) {
      const awaiting = status(g).awaiting;
      if (awaiting.length === 2 && awaiting.every((p) => p.kind === 'COMMIT_NUMBER')) return g;
      const seat = awaiting[pick(awaiting.length)]!.seat;
      const cmds = legal(g, seat);
      expect(attempt(g, seat, cmds[pick(cmds.length)]!).ok).toBe(true);
    }
  }
}

describe('a battle\'s secret numbers awaited from both armies at one deadline', () => {
  it('both let it run out: both are out, the game ends with no winner ("time out"), whichever job runs first', () => {
    const outcomes = (['azuthkan', 'celestine'] as const).map((first) => {
      const g = atNumberCall(1);
      const command = timeOutCommand(g.state.players, [first, ...SEATS.filter((s) => s !== first)]);
      expect(attempt(g, SYSTEM, command).ok).toBe(true);
      expectFinished(g, { winners: [], reason: 'time out' });
      return g.log;
    });
    expect(outcomes[0]).toEqual(outcomes[1]);
  });

  it('only one lets it run out: that army alone is out and the other wins', () => {
    const g = atNumberCall(1);
    expect(attempt(g, 'celestine', { type: 'commitNumber', number: 3 }).ok).toBe(true);
    expect(attempt(g, SYSTEM, timeOutCommand(g.state.players, ['azuthkan'])).ok).toBe(true);
    expectFinished(g, { winners: ['celestine'], reason: 'time out' });
  });

  it('a game that ends during the call no longer shows it open, nor the committed number to its owner only', () => {
    const g = atNumberCall(2);
    expect(attempt(g, 'azuthkan', { type: 'commitNumber', number: 4 }).ok).toBe(true);
    expect((visibleTo(warchon, g.state, 'azuthkan').view() as any).battle.numberCall.yourNumber).toBe(4);
    expect(attempt(g, 'celestine', { type: 'resign' }).ok).toBe(true);
    expectFinished(g, { winners: ['azuthkan'], reason: 'celestine resigned' });
    for (const viewer of [null, 'azuthkan', 'celestine']) expect((visibleTo(warchon, g.state, viewer).view() as any).battle).toBeNull();
    // The log shows the number to everyone, as the view does not hide it any more.
    const committed = g.log.map((r) => visibleTo(warchon, g.state, 'celestine').event(r.event)).filter((e) => e.type === 'NumberCommitted').at(-1);
    expect(committed).toMatchObject({ army: 'azuthkan', number: 4 });
  });
});
