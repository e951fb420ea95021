/**
 * Orders in words: in random positions of every game, each legal command's line reads back
 * to exactly that command, lines are unique, and no other line (a mutation of one) reads
 * to a legal command.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { games } from '../../src/domain/games.ts';
import {
  activePlayers,
  legalOrders,
  matchLegalCommands,
  normalizeLine,
  parseOrder,
  pickId,
  type MatchState,
  type GameModule,
  type Order,
} from '../../src/domain/kernel/index.ts';
import { chooser, newGame, status, submit } from '../support/play.ts';

/** Ways to spoil a line, each a different line (or the same line in another case and spacing). */
const mutations: ((line: string, other: string, pick: (n: number) => number) => string)[] = [
  (l, _o, p) => {
    const i = p(l.length);
    return l.slice(0, i) + l.slice(i + 1);
  },
  (l, _o, p) => {
    const i = p(l.length + 1);
    return `${l.slice(0, i)}${'xz1-'[p(4)]}${l.slice(i)}`;
  },
  (l) => l.split(' ').reverse().join(' '),
  (l) => l.split(' ').slice(0, -1).join(' '),
  (l, o) => `${l} ${o.split(' ').at(-1)}`,
  (l, o) => {
    const w = l.split(' ');
    const x = o.split(' ');
    w[w.length - 1] = x[x.length - 1]!;
    return w.join(' ');
  },
  (l, o) => [...o.split(' ').slice(0, 1), ...l.split(' ').slice(1)].join(' '),
  (l, o, p) => {
    const w = l.split(' ');
    const x = o.split(' ');
    w[p(w.length)] = x[p(x.length)]!;
    return w.join(' ');
  },
];

function checkPosition<S>(module: GameModule<S>, state: MatchState<S>, seed: number) {
  const pick = chooser(seed);
  for (const seat of activePlayers(module, state)) {
    const orders = legalOrders(module, state, seat);
    expect(orders.map((o) => o.command)).toEqual(matchLegalCommands(module, state, seat));
    const lines = orders.map((o) => normalizeLine(o.notation));
    expect(new Set(lines).size, `${module.id}: two orders share a line: ${lines.join(' | ')}`).toBe(lines.length);
    for (const o of orders) {
      expect(o.notation).not.toMatch(/\n/);
      expect(o.text.length).toBeGreaterThan(0);
    }
    const sample: Order[] = orders.length <= 4 ? orders : Array.from({ length: 4 }, () => orders[pick(orders.length)]!);
    for (const o of sample) {
      expect(parseOrder(module, state, seat, o.notation), o.notation).toEqual({ ok: true, command: o.command });
      // Case and spaces are forgiven.
      const sloppy = `  ${o.notation.toUpperCase().replace(/ /g, '   ')} `;
      expect(parseOrder(module, state, seat, sloppy), sloppy).toEqual({ ok: true, command: o.command });
      for (let k = 0; k < 3; k++) {
        const other = orders[pick(orders.length)]!.notation;
        const mutated = mutations[pick(mutations.length)]!(o.notation, other, pick);
        const read = parseOrder(module, state, seat, mutated);
        if (read.ok) {
          const same = orders.find((x) => JSON.stringify(x.command) === JSON.stringify(read.command));
          // A mutated line may read to a command, but a legal one only if it is that order's own line.
          if (same)
            expect(normalizeLine(mutated), `"${mutated}" (from "${o.notation}") reads to the legal ${same.notation}`).toBe(normalizeLine(same.notation));
        } else {
          expect(read.code).toBe('BAD_REQUEST');
          expect(read.reason.length).toBeGreaterThan(10);
        }
      }
    }
  }
}

describe.each(games.map((m) => [m.id, m] as const))('%s mail notation', (id, module) => {
  it('has a notation', () => {
    expect(module.notation).toBeDefined();
  });

  it('reads every legal order back to its command, and no mutated line to a legal one', () => {
    const options = (module.exampleOptions ?? [{}]);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: options.length - 1 }), (seed, o) => {
        const players = module.seats.slice(0, module.maxPlayers > 2 && seed % 2 ? module.maxPlayers : module.minPlayers) as string[];
        const game = newGame(module, options[o], players, `notation-${seed}`);
        const pick = chooser(seed);
        // A walk through the seats' orders (draw offers and answers among them), checking every
        // position early on and every fifth later: enough phases, within the time.
        for (let step = 0; step < 150 && status(game).stage !== 'FINISHED'; step++) {
          if (step < 12 || step % 5 === 0) checkPosition(module, game.state, seed + step);
          const seats = [...new Set(status(game).awaiting.map((p) => p.seat))];
          const seat = seats[pick(seats.length)]!;
          const all = legalOrders(module, game.state, seat);
          const orders = all.filter((x) => x.command.type !== 'resign' || pick(50) === 0);
          const chosen = orders.length ? orders : all;
          submit(game, seat, chosen[pick(chosen.length)]!.command);
        }
        checkPosition(module, game.state, seed);
      }),
      { numRuns: 5 },
    );
  });
});

describe('match orders', () => {
  const module = games[0]!;
  it('resign, offer draw, accept draw and decline draw read in any game', async () => {
    const { newGame } = await import('../support/play.ts');
    const g = newGame(module, {}, ['cao', 'yuan'], 'match-orders');
    expect(parseOrder(module, g.state, 'cao', 'Resign')).toEqual({ ok: true, command: { type: 'resign' } });
    expect(parseOrder(module, g.state, 'cao', 'offer   DRAW')).toEqual({ ok: true, command: { type: 'offerDraw' } });
    // Not legal now (no offer), but an order of the game: the rules will say why.
    expect(parseOrder(module, g.state, 'cao', 'accept draw')).toEqual({ ok: true, command: { type: 'acceptDraw' } });
  });

  it('refuses a line that is no order, saying which orders there are', async () => {
    const { newGame } = await import('../support/play.ts');
    const g = newGame(module, {}, ['cao', 'yuan'], 'match-orders');
    const read = parseOrder(module, g.state, 'yuan', 'fly chunyu-qiong H1');
    expect(read).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(!read.ok && read.reason).toContain('place <unit> <space>');
    expect(parseOrder(module, g.state, 'yuan', '   ')).toMatchObject({ ok: false, code: 'BAD_REQUEST', reason: 'An empty line is not an order' });
  });
});

describe.each(games.map((m) => [m.id, m] as const))('%s notation as documented', (id, module) => {
  it('reads every example line of docs/rules as an order of the game (its verb, its words)', () => {
    const doc = readFileSync(new URL(`../../docs/rules/${id}.md`, import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## Mail notation'));
    const examples = /```text\n([\s\S]*?)```/.exec(section)![1]!.trim().split('\n');
    expect(examples.length).toBeGreaterThan(5);
    const g = newGame(module, (module.exampleOptions ?? [{}])[0], module.seats.slice(0, module.minPlayers) as string[], `doc-${id}`);
    for (const line of examples) {
      const read = parseOrder(module, g.state, module.seats[0]!, line);
      // The ids may not exist in this position; the verb and the number of words must be right.
      if (!read.ok) expect(read.reason, line).not.toMatch(/: (the orders are|write it as) /);
    }
  });
});

describe('pickId', () => {
  it('forgives case, refuses two ids that differ only by case, and names what is missing', () => {
    expect(pickId('XU-CHU', ['xu-chu', 'yue-jin'], 'unit')).toEqual({ id: 'xu-chu' });
    expect(pickId('a1', ['A1', 'a1'], 'space')).toEqual({ refused: '"a1" is ambiguous: A1 or a1' });
    expect(pickId('z9', ['A1'], 'space')).toEqual({ refused: 'there is no space "z9"' });
  });
});

describe('orders of a game without a notation, and a notation that repeats itself', () => {
  it('offers a command as its JSON, and reads the match orders still', async () => {
    const { guessingGame } = await import('../support/guessing-game.ts');
    const g = newGame(guessingGame, {}, ['north', 'east'], 'guess');
    const seat = status(g).awaiting[0]!.seat;
    const orders = legalOrders(guessingGame, g.state, seat);
    expect(orders[0]).toEqual({ notation: '{"type":"guess","number":1}', text: '{"type":"guess","number":1}', command: { type: 'guess', number: 1 } });
    expect(parseOrder(guessingGame, g.state, seat, '{"type":"guess","number":1}')).toEqual({ ok: true, command: { type: 'guess', number: 1 } });
    expect(parseOrder(guessingGame, g.state, seat, 'guess 1')).toMatchObject({ ok: false, code: 'BAD_REQUEST', reason: expect.stringContaining('send the command as JSON') });
    expect(parseOrder(guessingGame, g.state, seat, 'resign')).toEqual({ ok: true, command: { type: 'resign' } });
  });

  it('refuses a line two legal orders share, naming both', async () => {
    const { guessingGame } = await import('../support/guessing-game.ts');
    // Every guess written alike except 6: "guess" could be any of five commands.
    const sloppy = {
      ...guessingGame,
      notation: {
        format: (c: { number: number }) => (c.number === 6 ? 'guess six' : 'guess'),
        text: (c: { number: number }) => `Guess ${c.number}`,
        parse: () => 'no',
        describe: () => [],
      },
    };
    const g = newGame(sloppy, {}, ['north', 'east'], 'guess');
    const seat = status(g).awaiting[0]!.seat;
    expect(parseOrder(sloppy, g.state, seat, 'GUESS')).toMatchObject({ ok: false, code: 'BAD_REQUEST', reason: expect.stringContaining('"GUESS" is ambiguous: it could mean Guess 1 or Guess 2') });
    expect(parseOrder(sloppy, g.state, seat, 'guess six')).toEqual({ ok: true, command: { type: 'guess', number: 6 } });
  });
});
