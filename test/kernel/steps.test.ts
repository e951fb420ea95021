/**
 * Several commands of one seat in one step, all or none: the same events as one step at a
 * time, or nothing and the first refusal's place and reason.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { games } from '../../src/domain/games.ts';
import { asSeat, legalOrders, stepAll, stepOrders, type Command, type MatchState } from '../../src/domain/kernel/index.ts';
import { chooser, legal, newGame, status, submit } from '../support/play.ts';

const raid = games.find((g) => g.id === 'raid-on-wuchao')!;

describe('stepAll', () => {
  it('applies a seat’s run of commands as the single steps did, dice included', () => {
    for (const module of games) {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
          const g = newGame(module, (module.exampleOptions ?? [{}])[0], module.seats.slice(0, module.minPlayers) as string[], `steps-${seed}`);
          const pick = chooser(seed);
          // Runs of consecutive commands by one seat: the state before, the commands, what they recorded.
          const runs: { before: MatchState<unknown>; seat: string; commands: Command[]; from: number; to: number }[] = [];
          for (let i = 0; i < 150 && status(g).stage !== 'FINISHED'; i++) {
            const seat = status(g).awaiting[0]!.seat;
            const options = legal(g, seat);
            if (options.length === 0) break;
            const command = options[pick(options.length)]!;
            const last = runs.at(-1);
            const run = last && last.seat === seat && last.commands.length < 6 ? last : { before: g.state, seat, commands: [] as Command[], from: g.log.length, to: 0 };
            if (run !== last) runs.push(run);
            submit(g, seat, command);
            run.commands.push(command);
            run.to = g.log.length;
          }
          for (const run of runs) {
            const out = stepAll(module, run.before, run.commands, asSeat(run.seat), { seed: g.seed });
            expect(out.ok, JSON.stringify(out)).toBe(true);
            if (out.ok) expect(out.recorded).toEqual(g.log.slice(run.from, run.to));
          }
        }),
        { numRuns: 3 },
      );
    }
  });

  it('places several Yuan units in one step, as many single steps would', () => {
    const g = newGame(raid, {}, ['cao', 'yuan'], 'steps');
    const commands: Command[] = [
      { type: 'placeUnit', unit: 'chunyu-qiong', space: 'H1' },
      { type: 'placeUnit', unit: 'sui-yuanjin', space: 'H2' },
      { type: 'placeUnit', unit: 'zhang-he', space: 'E1' },
    ];
    const all = stepAll(raid, g.state, commands, asSeat('yuan'), { seed: g.seed });
    expect(all.ok).toBe(true);
    if (!all.ok) return;
    const one = newGame(raid, {}, ['cao', 'yuan'], 'steps');
    const events = commands.flatMap((c) => submit(one, 'yuan', c));
    expect(all.recorded.map((r) => r.event)).toEqual(events);
    expect(all.counts).toEqual([1, 1, 1]);
    expect(all.commands).toEqual(commands);
    expect(all.state).toEqual(one.state);
    expect(all.status).toEqual(status(one));
  });

  it('applies nothing when one is refused, and says which and why', () => {
    const g = newGame(raid, {}, ['cao', 'yuan'], 'steps');
    const out = stepAll(
      raid,
      g.state,
      [
        { type: 'placeUnit', unit: 'chunyu-qiong', space: 'H1' },
        { type: 'placeUnit', unit: 'chunyu-qiong', space: 'H2' },
        { type: 'placeUnit', unit: 'zhang-he', space: 'E1' },
      ],
      asSeat('yuan'),
      { seed: g.seed },
    );
    expect(out).toMatchObject({ ok: false, code: 'ILLEGAL_COMMAND', index: 1 });
    expect(!out.ok && out.reason).toMatch(/chunyu|Chunyu/);
  });

  it('refuses what follows a resignation: the game is over', () => {
    const g = newGame(raid, {}, ['cao', 'yuan'], 'steps');
    const out = stepAll(raid, g.state, [{ type: 'resign' }, { type: 'placeUnit', unit: 'zhang-he', space: 'E1' }], asSeat('yuan'), { seed: g.seed });
    expect(out).toMatchObject({ ok: false, code: 'GAME_OVER', index: 1 });
  });

  it('refuses an empty list', () => {
    const g = newGame(raid, {}, ['cao', 'yuan'], 'steps');
    expect(stepAll(raid, g.state, [], asSeat('yuan'), { seed: g.seed })).toMatchObject({ ok: false, code: 'BAD_REQUEST', index: 0 });
  });
});

describe('stepOrders', () => {
  it('reads each line on the position the previous ones left: a unit moved twice', () => {
    const g = newGame(raid, {}, ['cao', 'yuan'], 'orders');
    // Yuan sets up from the list of orders, one line each.
    for (let i = 0; status(g).stage === 'SETUP' && i < 20; i++) {
      const first = legalOrders(raid, g.state, 'yuan')[0]!;
      submit(g, 'yuan', first.command);
    }
    expect(status(g).awaiting[0]!.seat).toBe('cao');
    const out = stepOrders(raid, g.state, 'cao', ['move xu-chu A1 B1', '  MOVE Xu-Chu b1 C1 ', 'end movement'], { seed: g.seed });
    expect(out.ok, JSON.stringify(out)).toBe(true);
    if (!out.ok) return;
    expect(out.commands).toEqual([{ type: 'move', unit: 'xu-chu', to: 'B1' }, { type: 'move', unit: 'xu-chu', to: 'C1' }, { type: 'endMovement' }]);
  });

  it('refuses a line that is no order, with its place, and applies nothing', () => {
    const g = newGame(raid, {}, ['cao', 'yuan'], 'orders');
    const out = stepOrders(raid, g.state, 'yuan', ['place chunyu-qiong H1', 'plaice sui-yuanjin H2'], { seed: g.seed });
    expect(out).toMatchObject({ ok: false, code: 'BAD_REQUEST', index: 1 });
  });
});
