import { describe, expect, it } from 'vitest';
import { evolveMatch, initialMatch, GameRegistry, type Random } from '../../../src/domain/kernel/index.ts';
import { threeKingdoms, type TkState } from '../../../src/domain/three-kingdoms-combined-arms/index.ts';
import { UNIT_LIST, UNIT_KINDS } from '../../../src/domain/three-kingdoms-combined-arms/data.ts';
import { ALL_SQUARES, cornerSquares } from '../../../src/domain/three-kingdoms-combined-arms/board.ts';
import { rollTerrain } from '../../../src/domain/three-kingdoms-combined-arms/setup.ts';
import { attempt, legal, newGame, status, submit, type Played } from '../../support/play.ts';

function placeAll(g: Played<TkState>): void {
  for (let i = 0; status(g).stage === 'SETUP'; i++) {
    const seat = status(g).awaiting[0]!.seat;
    const options = legal(g, seat);
    submit(g, seat, options[(i * 37) % options.length]!);
  }
}

describe('UNIT LIST', () => {
  it('is the printed army list: Move, Range, Defense and number of each unit', () => {
    const printed = Object.fromEntries(UNIT_KINDS.map((k) => [UNIT_LIST[k].name, [UNIT_LIST[k].move, UNIT_LIST[k].range, UNIT_LIST[k].defense, UNIT_LIST[k].count]]));
    expect(printed).toEqual({
      General: [4, 1, 3, 2],
      'Armored Cavalry': [4, 1, 3, 2],
      Infantry: [2, 1, 4, 4],
      Archers: [2, 2, 3, 2],
      Rockets: [1, 3, 2, 2],
      'Shock Troops': [1, 1, 5, 2],
      'Horse Archers': [5, 2, 2, 2],
    });
  });

  it('gives every player the whole army, each unit with its printed attributes in the view', () => {
    const g = newGame(threeKingdoms, {}, ['wei', 'shu', 'wu'], 'army');
    placeAll(g);
    const units = (threeKingdoms.view(g.state.game, null) as { units: { seat: string; kind: string; move: number; range: number }[] }).units;
    for (const seat of ['wei', 'shu', 'wu']) {
      const mine = units.filter((u) => u.seat === seat);
      expect(mine).toHaveLength(16);
      for (const kind of UNIT_KINDS) {
        const ofKind = mine.filter((u) => u.kind === kind);
        expect(ofKind).toHaveLength(UNIT_LIST[kind].count);
        for (const u of ofKind) expect([u.move, u.range]).toEqual([UNIT_LIST[kind].move, UNIT_LIST[kind].range]);
      }
    }
  });
});

describe('players and seats', () => {
  it('takes 2 to 4 players among Wei, Shu, Wu and Jin', () => {
    expect(threeKingdoms.seats).toEqual(['wei', 'shu', 'wu', 'jin']);
    expect([threeKingdoms.minPlayers, threeKingdoms.maxPlayers]).toEqual([2, 4]);
  });

  it('accepts {} as options, filling the defaults, and refuses unknown or malformed options', () => {
    const registry = new GameRegistry([threeKingdoms]);
    expect(registry.validateOptions(threeKingdoms.id, {})).toEqual({ ok: true, value: { terrain: null, turnLimit: null } });
    expect(registry.validateOptions(threeKingdoms.id, { turnLimit: 0 }).ok).toBe(false);
    expect(registry.validateOptions(threeKingdoms.id, { terrain: { cities: ['M1'], forests: [], mountains: [] } }).ok).toBe(false);
    expect(registry.validateOptions(threeKingdoms.id, { dice: true }).ok).toBe(false);
  });

  it('gives two players opposite corners (south-west, north-east) and a third and fourth the other two', () => {
    expect(newGame(threeKingdoms, {}, ['shu', 'wei']).state.game.corners).toEqual({ shu: 'SW', wei: 'NE' });
    expect(newGame(threeKingdoms, {}, ['wu', 'jin', 'wei', 'shu']).state.game.corners).toEqual({ wu: 'SW', jin: 'NE', wei: 'SE', shu: 'NW' });
  });
});

describe('TERRAIN', () => {
  it('distributes 10 cities, 10 forests and 10 mountains on distinct squares from the seed, recorded in the setup event', () => {
    const g = newGame(threeKingdoms, {}, ['wei', 'shu'], 'terrain-1');
    const event = g.log[0]!.event as unknown as { type: string; source: string; cities: string[]; forests: string[]; mountains: string[] };
    expect(event).toMatchObject({ type: 'TerrainPlaced', source: 'seed' });
    expect([event.cities.length, event.forests.length, event.mountains.length]).toEqual([10, 10, 10]);
    expect(new Set([...event.cities, ...event.forests, ...event.mountains]).size).toBe(30);
    expect(Object.keys(g.state.game.cities).sort()).toEqual([...event.cities].sort());
    expect(newGame(threeKingdoms, {}, ['wei', 'shu'], 'terrain-1').log[0]!.event).toEqual(event);
    expect(newGame(threeKingdoms, {}, ['wei', 'shu'], 'terrain-2').log[0]!.event).not.toEqual(event);
  });

  it('replays the terrain from the event without rolling again', () => {
    const g = newGame(threeKingdoms, {}, ['wei', 'shu'], 'replay');
    const input = { options: {}, players: ['wei', 'shu'] };
    const replayed = g.log.reduce((s, rec) => evolveMatch(threeKingdoms, s, rec), initialMatch(threeKingdoms, input));
    expect(replayed.game).toEqual(g.state.game);
  });

  it('uses a layout given at creation instead of the seed, with no dice', () => {
    const terrain = { cities: ['F6', 'G7'], forests: ['A2'], mountains: ['B3'] };
    const g = newGame(threeKingdoms, { terrain }, ['wei', 'shu']);
    expect(g.log[0]!.event).toEqual({ type: 'TerrainPlaced', source: 'options', ...terrain });
    expect(g.state.draws).toBe(0);
    expect(g.state.game.terrain).toEqual({ F6: 'city', G7: 'city', A2: 'forest', B3: 'mountain' });
  });

  it('keeps the first kind, in the order mountains, forests, cities, for a square a given layout lists twice (ruling)', () => {
    const g = newGame(threeKingdoms, { terrain: { cities: ['B3', 'C4', 'F6'], forests: ['B3', 'C4'], mountains: ['B3'] } }, ['wei', 'shu']);
    expect(g.log[0]!.event).toEqual({ type: 'TerrainPlaced', source: 'options', cities: ['F6'], forests: ['C4'], mountains: ['B3'] });
    expect(g.state.game.terrain).toEqual({ B3: 'mountain', C4: 'forest', F6: 'city' });
    expect(g.state.game.cities).toEqual({ F6: null });
  });

  it('never puts so many mountains in a corner that an army no longer fits (ruling)', () => {
    // A die that tries to pile every mountain into the south-west corner.
    const sw = cornerSquares('SW');
    const taken: string[] = [];
    let calls = 0;
    const greedy: Random = {
      die(sides) {
        calls++;
        if (calls > 10) return 1;
        const free = ALL_SQUARES.filter((s) => !taken.includes(s));
        const target = sw.find((s) => !taken.includes(s))!;
        taken.push(target);
        return Math.min(sides, free.indexOf(target) + 1);
      },
    };
    const layout = rollTerrain(greedy);
    expect(layout.mountains.filter((s) => sw.includes(s))).toHaveLength(9);
    expect(layout.mountains).toHaveLength(10);
  });
});

describe('SETUP', () => {
  it('has players take turns placing one unit at a time, in the seat order chosen at creation', () => {
    const g = newGame(threeKingdoms, { terrain: { cities: [], forests: [], mountains: [] } }, ['wu', 'wei', 'shu']);
    const order: string[] = [];
    for (let i = 0; i < 6; i++) {
      const [prompt] = status(g).awaiting;
      expect(prompt).toMatchObject({ kind: 'SETUP' });
      expect(status(g).awaiting).toHaveLength(1);
      order.push(prompt!.seat);
      submit(g, prompt!.seat, legal(g, prompt!.seat)[0]!);
    }
    expect(order).toEqual(['wu', 'wei', 'shu', 'wu', 'wei', 'shu']);
    expect(status(g)).toMatchObject({ stage: 'SETUP', phase: 'Setup', round: null });
    expect(legal(g, 'wei')).toEqual([]);
    expect(attempt(g, 'wei', { type: 'placeUnit', kind: 'general', square: 'L12' })).toMatchObject({ ok: false, code: 'NOT_YOUR_TURN' });
  });

  it('keeps each player to their own 5x5 corner, off mountains, without stacking', () => {
    const g = newGame(threeKingdoms, { terrain: { cities: ['B2'], forests: [], mountains: ['A1'] } }, ['wei', 'shu']);
    expect(attempt(g, 'wei', { type: 'placeUnit', kind: 'general', square: 'F1' })).toMatchObject({ ok: false, reason: expect.stringContaining('outside your south-west corner (A1–E5)') });
    expect(attempt(g, 'wei', { type: 'placeUnit', kind: 'general', square: 'A1' })).toMatchObject({ ok: false, reason: expect.stringContaining('mountain') });
    const placed = submit(g, 'wei', { type: 'placeUnit', kind: 'general', square: 'B2' });
    expect(placed).toEqual([
      { type: 'UnitPlaced', seat: 'wei', unit: 'wei-general-1', kind: 'general', square: 'B2' },
      { type: 'CityOccupied', square: 'B2', seat: 'wei', previous: null },
    ]);
    expect(attempt(g, 'shu', { type: 'placeUnit', kind: 'infantry', square: 'B2' }).ok).toBe(false);
    submit(g, 'shu', { type: 'placeUnit', kind: 'infantry', square: 'L12' });
    expect(attempt(g, 'wei', { type: 'placeUnit', kind: 'infantry', square: 'B2' })).toMatchObject({ ok: false, reason: expect.stringContaining('may not stack') });
    const squares = legal(g, 'wei').map((c) => c.square as string);
    expect(new Set(squares)).toEqual(new Set(cornerSquares('SW').filter((s) => s !== 'A1' && s !== 'B2')));
  });

  it('refuses a unit type whose units are all placed', () => {
    const g = newGame(threeKingdoms, { terrain: { cities: [], forests: [], mountains: [] } }, ['wei', 'shu']);
    submit(g, 'wei', { type: 'placeUnit', kind: 'general', square: 'A1' });
    submit(g, 'shu', { type: 'placeUnit', kind: 'general', square: 'L12' });
    submit(g, 'wei', { type: 'placeUnit', kind: 'general', square: 'A2' });
    submit(g, 'shu', { type: 'placeUnit', kind: 'general', square: 'L11' });
    expect(attempt(g, 'wei', { type: 'placeUnit', kind: 'general', square: 'A3' })).toMatchObject({ ok: false, reason: 'All your Generals are already on the board' });
    expect(legal(g, 'wei').some((c) => c.kind === 'general')).toBe(false);
  });

  it('makes a placement with exactly one legal option by itself: the last unit, one kind, one square (ruling)', () => {
    // Nine mountains in Wei's corner leave 16 squares for Wei's 16 units.
    const mountains = cornerSquares('SW').slice(0, 9);
    const g = newGame(threeKingdoms, { terrain: { cities: [], forests: [], mountains } }, ['wei', 'shu']);
    // Wei and Shu place 14 units each, the printed kinds in order.
    for (let i = 0; i < 28; i++) {
      const seat = status(g).awaiting[0]!.seat;
      submit(g, seat, legal(g, seat)[0]!);
    }
    // Wei places its 15th unit: two squares are left, for its last unit.
    expect(legal(g, 'wei')).toEqual([
      { type: 'placeUnit', kind: 'horseArchers', square: 'D5' },
      { type: 'placeUnit', kind: 'horseArchers', square: 'E5' },
    ]);
    submit(g, 'wei', legal(g, 'wei')[0]!);
    // Wei now has one Horse Archers left and one square: it is placed as soon as Shu has placed.
    const events = submit(g, 'shu', legal(g, 'shu')[0]!);
    expect(events).toEqual([
      expect.objectContaining({ type: 'UnitPlaced', seat: 'shu' }),
      { type: 'UnitPlaced', seat: 'wei', unit: 'wei-horseArchers-2', kind: 'horseArchers', square: 'E5' },
    ]);
    expect(status(g).awaiting).toMatchObject([{ seat: 'shu', kind: 'SETUP' }]);
    submit(g, 'shu', legal(g, 'shu')[0]!);
    expect(status(g)).toMatchObject({ stage: 'ACTIVE', awaiting: [{ seat: 'wei', kind: 'MOVE' }] });
  });

  it('ends once every unit is placed; the first seat then moves first', () => {
    const g = newGame(threeKingdoms, {}, ['shu', 'wei'], 'full-setup');
    placeAll(g);
    const s = g.state.game;
    expect(s.units).toHaveLength(32);
    for (const u of s.units) expect(cornerSquares(s.corners[u.seat]!)).toContain(u.square);
    expect(new Set(s.units.map((u) => u.square)).size).toBe(32);
    expect(status(g)).toMatchObject({ stage: 'ACTIVE', phase: 'Shu Move Phase', round: 1, awaiting: [{ seat: 'shu', kind: 'MOVE' }] });
  });

  it('leaves out units that find no free square in their corner (a given layout may fill it with mountains)', () => {
    const mountains = cornerSquares('SW').slice(0, 20);
    const g = newGame(threeKingdoms, { terrain: { cities: [], forests: [], mountains } }, ['wei', 'shu']);
    placeAll(g);
    expect(g.state.game.units.filter((u) => u.seat === 'wei')).toHaveLength(5);
    expect(g.state.game.units.filter((u) => u.seat === 'shu')).toHaveLength(16);
    const completed = g.log.map((r) => r.event).find((e) => e.type === 'SetupCompleted') as unknown as { unplaced: { seat: string; count: number }[] };
    expect(completed.unplaced.filter((u) => u.seat === 'wei').reduce((n, u) => n + u.count, 0)).toBe(11);
  });

  it('puts out a player who has no General on the board when setup ends; with two players the other wins (ruling)', () => {
    // A given layout leaves Wei one square (A1); Wei places Infantry there, so no General of Wei is on the board.
    const mountains = cornerSquares('SW').filter((s) => s !== 'A1');
    const g = newGame(threeKingdoms, { terrain: { cities: [], forests: [], mountains } }, ['wei', 'shu']);
    submit(g, 'wei', { type: 'placeUnit', kind: 'infantry', square: 'A1' });
    let last: unknown[] = [];
    while (status(g).stage === 'SETUP') last = submit(g, 'shu', legal(g, 'shu')[0]!);
    expect(last.slice(-3)).toEqual([
      expect.objectContaining({ type: 'SetupCompleted' }),
      { type: 'PlayerOut', seat: 'wei', reason: 'Wei has no General on the board', cause: 'generals' },
      { type: 'GameEnded', winners: ['shu'], reason: 'no other player has a General on the board' },
    ]);
    expect(status(g)).toMatchObject({ stage: 'FINISHED', result: { winners: ['shu'] } });
  });

  it('is a draw when no player has a General on the board after setup (a given layout with every corner full of mountains)', () => {
    const mountains = [...cornerSquares('SW'), ...cornerSquares('NE')];
    const g = newGame(threeKingdoms, { terrain: { cities: [], forests: [], mountains } }, ['wei', 'shu']);
    expect(g.log.map((r) => r.event.type)).toEqual(['TerrainPlaced', 'SetupCompleted', 'PlayerOut', 'PlayerOut', 'GameEnded']);
    expect(status(g)).toMatchObject({ stage: 'FINISHED', result: { winners: [], reason: 'no player has a General on the board (draw)' } });
  });

  it('with three players, plays on without the player who has no General on the board (ruling)', () => {
    const mountains = cornerSquares('SW').filter((s) => s !== 'A1');
    const g = newGame(threeKingdoms, { terrain: { cities: [], forests: [], mountains } }, ['wei', 'shu', 'wu']);
    submit(g, 'wei', { type: 'placeUnit', kind: 'infantry', square: 'A1' });
    placeAll(g);
    expect(g.state.game.out).toEqual(['wei']);
    expect(g.state.game.units.some((u) => u.seat === 'wei')).toBe(false);
    expect(status(g)).toMatchObject({ stage: 'ACTIVE', phase: 'Shu Move Phase', round: 1, out: ['wei'] });
  });
});
