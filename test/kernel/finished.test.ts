/**
 * Finished means finished, whatever ended the game: the module's own status and view say
 * so after a resignation, an agreed draw or a time-out, in every game.
 */
import { describe, expect, it } from 'vitest';
import { games } from '../../src/domain/games.ts';
import { SYSTEM, evolveMatch, initialMatch, matchStatus, visibleTo, type GameModule } from '../../src/domain/kernel/index.ts';
import { attempt, newGame, status, type Played } from '../support/play.ts';

function started(module: GameModule): Played<unknown> {
  return newGame(module, {}, module.seats.slice(0, module.minPlayers) as string[], `finished-${module.id}`);
}

function expectFinished(g: Played<unknown>, result: { winners: string[]; reason: string }) {
  const own = g.module.status(g.state.game);
  expect(own).toMatchObject({ stage: 'FINISHED', awaiting: [], result });
  expect(status(g)).toMatchObject({ stage: 'FINISHED', awaiting: [], result, phase: own.phase });
  for (const viewer of [null, ...g.state.players]) {
    const view = visibleTo(g.module, g.state, viewer).view() as { result?: unknown };
    expect(view.result, `${g.module.id} view for ${viewer}`).toEqual(result);
  }
  // The stored log alone folds to the same state.
  let folded = initialMatch(g.module, { options: {}, players: g.state.players });
  for (const r of g.log) folded = evolveMatch(g.module, folded, r);
  expect(matchStatus(g.module, folded)).toEqual(status(g));
}

describe.each(games.map((m) => [m.id, m] as const))('%s', (_id, module) => {
  it('is over after a resignation: the module says so, with the result and nothing pending', () => {
    const g = started(module);
    const [first, second] = g.state.players as [string, string];
    expect(attempt(g, first, { type: 'resign' }).ok).toBe(true);
    expectFinished(g, { winners: [second], reason: `${module.seatName?.(first) ?? first} resigned` });
  });

  it('is over after an agreed draw', () => {
    const g = started(module);
    const [first, second] = g.state.players as [string, string];
    expect(attempt(g, first, { type: 'offerDraw' }).ok).toBe(true);
    expect(attempt(g, second, { type: 'acceptDraw' }).ok).toBe(true);
    expectFinished(g, { winners: [], reason: 'draw agreed' });
  });

  it('is over after a time-out of the seat it waits for', () => {
    const g = started(module);
    const awaited = status(g).awaiting[0]!.seat;
    expect(attempt(g, SYSTEM, { type: 'timeOut', seat: awaited }).ok).toBe(true);
    expectFinished(g, { winners: g.state.players.filter((p) => p !== awaited), reason: 'time out' });
  });
});
