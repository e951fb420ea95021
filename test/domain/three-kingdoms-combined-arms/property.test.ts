/**
 * Many random games from random seeds, each move chosen only from legalCommands (steered
 * towards the enemy Generals so that games reach an end), with the game's invariants
 * checked after every event.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { asSeat, decideMatch, evolveMatch, initialMatch, SeededRandom, type Command, type GameEvent } from '../../../src/domain/kernel/index.ts';
import { threeKingdoms, type TkState } from '../../../src/domain/three-kingdoms-combined-arms/index.ts';
import { distance, isSquare, ALL_SQUARES } from '../../../src/domain/three-kingdoms-combined-arms/board.ts';
import { UNIT_KINDS, UNIT_LIST } from '../../../src/domain/three-kingdoms-combined-arms/data.ts';
import { defenseOf } from '../../../src/domain/three-kingdoms-combined-arms/state.ts';
import { attempt, chooser, legal, newGame, status, type Played } from '../../support/play.ts';

/** More random games off CI: PROPERTY_RUNS=2000 npx vitest run <this file>. */
const RUNS = process.env.PROPERTY_RUNS ? Number(process.env.PROPERTY_RUNS) : undefined;

function checkState(s: TkState): void {
  const squares = s.units.map((u) => u.square);
  expect(new Set(squares).size, 'no stacking').toBe(squares.length);
  for (const u of s.units) {
    expect(isSquare(u.square), `${u.id} inside the board`).toBe(true);
    expect(s.terrain[u.square], `${u.id} not on a mountain`).not.toBe('mountain');
    expect(s.out).not.toContain(u.seat);
  }
  expect(new Set(s.units.map((u) => u.id)).size).toBe(s.units.length);
  if (s.stage !== 'ACTIVE' || s.phase !== 'attack') expect(s.damage).toEqual({});
  for (const [id, d] of Object.entries(s.damage)) {
    const unit = s.units.find((u) => u.id === id);
    expect(unit, 'damage only on units on the board').toBeDefined();
    expect(unit!.seat).not.toBe(s.active);
    expect(d).toBeGreaterThanOrEqual(0);
  }
  if (s.pendingRetreat) {
    const unit = s.units.find((u) => u.id === s.pendingRetreat!.unit)!;
    expect(unit.seat).toBe(s.pendingRetreat.seat);
    expect(s.retreated).toContain(unit.id);
    expect(s.damage[unit.id]).toBe(0);
    expect(s.pendingRetreat.options.length).toBeGreaterThan(0);
    for (const o of s.pendingRetreat.options) {
      expect(distance(o, unit.square)).toBe(1);
      expect(s.units.some((u) => u.square === o)).toBe(false);
      expect(s.terrain[o]).not.toBe('mountain');
    }
  }
  for (const [city, owner] of Object.entries(s.cities)) {
    expect(s.terrain[city]).toBe('city');
    if (owner) expect(s.out).not.toContain(owner);
  }
}

/**
 * Once a command has been played: the retreat check is a state, so no unit is left with
 * damage this phase at or above its defense now, unless a retreat choice is still pending.
 */
function checkSettled(s: TkState): void {
  if (s.stage !== 'ACTIVE' || s.phase !== 'attack' || s.pendingRetreat) return;
  for (const u of s.units) expect(s.damage[u.id] ?? 0, `${u.id}: damage ${s.damage[u.id]} against defense ${defenseOf(s, u)}`).toBeLessThan(defenseOf(s, u));
}

/** Per-phase bookkeeping the events must respect (Double Whammy, retreat once). */
class Ledger {
  forced = new Set<string>();
  previous: GameEvent | null = null;
  pendingCheck: { target: string } | null = null;

  see(before: TkState, after: TkState, e: GameEvent): void {
    if (this.pendingCheck) {
      // An attack that reached the defense is followed at once by the retreat or the destruction.
      expect(['RetreatForced', 'UnitDestroyed']).toContain(e.type);
      expect(e.unit).toBe(this.pendingCheck.target);
      this.pendingCheck = null;
    }
    switch (e.type) {
      case 'TurnStarted':
      case 'TurnEnded':
        this.forced.clear();
        break;
      case 'UnitMoved': {
        const unit = before.units.find((u) => u.id === e.unit)!;
        expect(before.phase).toBe('move');
        expect((e.path as string[]).length).toBeLessThanOrEqual(UNIT_LIST[unit.kind].move);
        for (const sq of (e.path as string[]).slice(0, -1)) expect(before.terrain[sq]).not.toBe('forest');
        break;
      }
      case 'UnitAttacked': {
        expect(before.phase).toBe('attack');
        expect(e.damageThisPhase).toBe((before.damage[e.target as string] ?? 0) + (e.damage as number));
        if ((e.damageThisPhase as number) >= (e.defense as number)) this.pendingCheck = { target: e.target as string };
        break;
      }
      case 'RetreatForced':
        expect(this.forced.has(e.unit as string), 'a unit retreats at most once per phase').toBe(false);
        this.forced.add(e.unit as string);
        break;
      case 'UnitDestroyed':
        if (e.reason === 'DOUBLE_WHAMMY') expect(this.forced.has(e.unit as string)).toBe(true);
        else expect(this.forced.has(e.unit as string)).toBe(false);
        break;
      case 'PlayerOut':
        expect(after.units.some((u) => u.seat === e.seat)).toBe(false);
        break;
    }
    this.previous = e;
  }
}

/** Prefers attacks (on Generals, on wounded units), then moves that close in on enemy Generals. */
function pick(g: Played<TkState>, seat: string, options: Command[], rnd: (n: number) => number): Command {
  const s = g.state.game;
  const attacks = options.filter((c) => c.type === 'attack');
  if (attacks.length && rnd(10) > 0) {
    const score = (c: Command) => {
      const t = s.units.find((u) => u.id === c.target)!;
      return (t.kind === 'general' ? 10 : 0) + (s.damage[t.id] ?? 0) * 3 + rnd(3);
    };
    return attacks.reduce((a, b) => (score(b) > score(a) ? b : a));
  }
  const moves = options.filter((c) => c.type === 'move');
  if (moves.length && rnd(8) > 0) {
    const enemies = s.units.filter((u) => u.seat !== seat);
    const targets = enemies.some((u) => u.kind === 'general') ? enemies.filter((u) => u.kind === 'general') : enemies;
    const nearest = (square: string) => Math.min(...targets.map((t) => distance(square, t.square)));
    const gain = (c: Command) => {
      const unit = s.units.find((u) => u.id === c.unit)!;
      return nearest(unit.square) - nearest(c.to as string) + rnd(2);
    };
    const best = moves.reduce((a, b) => (gain(b) > gain(a) ? b : a));
    if (gain(best) > 0) return best;
  }
  const ends = options.filter((c) => c.type === 'endMovement' || c.type === 'endTurn');
  return ends.length ? ends[0]! : options[rnd(options.length)]!;
}

/** Commands that look plausible but are not listed: the rules must refuse them. */
function unlisted(g: Played<TkState>, seat: string, listed: Command[], rnd: (n: number) => number): Command[] {
  const s = g.state.game;
  const ids = [...s.units.map((u) => u.id), 'wei-general-9'];
  const sq = () => ALL_SQUARES[rnd(ALL_SQUARES.length)]!;
  const id = () => ids[rnd(ids.length)]!;
  const candidates: Command[] = [
    { type: 'placeUnit', kind: UNIT_KINDS[rnd(UNIT_KINDS.length)]!, square: sq() },
    { type: 'move', unit: id(), to: sq() },
    { type: 'attack', unit: id(), target: id() },
    { type: 'retreat', unit: id(), to: sq() },
    { type: 'endMovement' },
    { type: 'endTurn' },
  ];
  const key = (c: Command) => JSON.stringify(c, Object.keys(c).sort());
  const known = new Set(listed.map(key));
  return candidates.filter((c) => !known.has(key(c)));
}

function playOut(seed: string, players: string[], walkSeed: number, turnLimit: number) {
  const g = newGame(threeKingdoms, { turnLimit }, players, seed);
  const rnd = chooser(walkSeed);
  checkState(g.state.game);
  const ledger = new Ledger();
  let steps = 0;
  while (status(g).stage !== 'FINISHED') {
    steps++;
    expect(steps).toBeLessThan(20000);
    const st = status(g);
    expect(st.awaiting.length).toBe(1);
    const seat = st.awaiting[0]!.seat;
    // The game only waits for a real choice: a decision with one option is taken automatically.
    if (st.awaiting[0]!.kind === 'RETREAT') expect(g.state.game.pendingRetreat!.options.length).toBeGreaterThan(1);
    for (const other of players) if (other !== seat) expect(legal(g, other)).toEqual([]);
    const options = legal(g, seat);
    expect(options.length, `${st.awaiting[0]!.kind} with one option: ${JSON.stringify(options)}`).toBeGreaterThan(1);
    // A sample of the listed commands is accepted; a sample of unlisted ones is refused.
    for (let i = 0; i < 2; i++) {
      const c = options[rnd(options.length)]!;
      const d = decideMatch(threeKingdoms, g.state, c, asSeat(seat), new SeededRandom(seed, g.state.draws));
      expect(d.ok, `${JSON.stringify(c)} listed but refused: ${d.ok ? '' : d.reason}`).toBe(true);
    }
    if (steps % 5 === 0) {
      for (const c of unlisted(g, seat, options, rnd)) {
        const d = decideMatch(threeKingdoms, g.state, c, asSeat(seat), new SeededRandom(seed, g.state.draws));
        expect(d.ok, `${JSON.stringify(c)} not listed but accepted`).toBe(false);
      }
    }
    const command = st.stage === 'SETUP' ? options[rnd(options.length)]! : pick(g, seat, options, rnd);
    let before = g.state.game;
    const decision = attempt(g, seat, command, (state, event) => {
      ledger.see(before, state.game, event);
      checkState(state.game);
      before = state.game;
    });
    expect(decision.ok).toBe(true);
    checkSettled(g.state.game);
  }
  // No dice after the terrain: 30 draws at setup, none since.
  expect(g.state.draws).toBe(30);
  // Replaying the log folds to the same state, and the state is plain JSON.
  const input = { options: { turnLimit }, players };
  const replayed = g.log.reduce((s, rec) => evolveMatch(threeKingdoms, s, rec), initialMatch(threeKingdoms, input));
  expect(replayed.game).toEqual(g.state.game);
  expect(JSON.parse(JSON.stringify(g.state.game))).toEqual(g.state.game);
  return { result: status(g).result!, rounds: g.state.game.round };
}

const tally = { won: 0, drawn: 0 };

describe('random games choosing only legal commands', () => {
  it('keep every invariant after every event and always end', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12 }),
        fc.shuffledSubarray(['wei', 'shu', 'wu', 'jin'], { minLength: 2, maxLength: 4 }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (seed, players, walkSeed) => {
          const { result } = playOut(seed, players, walkSeed, 25);
          expect(result).not.toBeNull();
          if (result.winners.length) tally.won++;
          else tally.drawn++;
        },
      ),
      { numRuns: RUNS ?? 16 },
    );
    // The steering works: some games end by conquest, not only by the turn limit.
    expect(tally.won).toBeGreaterThan(0);
  });

  it('reach a victory in a steered two-player game', () => {
    const { result } = playOut('conquest', ['wei', 'shu'], 7, 60);
    expect(result.winners).toHaveLength(1);
  });
});

/** Every command of every type the awaited seat could send: each unit id (on the board or destroyed) and each square. */
function everyCommand(s: TkState): Command[] {
  const ids = [...s.units.map((u) => u.id), ...s.destroyed.map((d) => d.id)];
  const all: Command[] = [{ type: 'endMovement' }, { type: 'endTurn' }];
  for (const kind of UNIT_KINDS) for (const square of ALL_SQUARES) all.push({ type: 'placeUnit', kind, square });
  for (const id of ids) {
    for (const to of ALL_SQUARES) all.push({ type: 'move', unit: id, to }, { type: 'retreat', unit: id, to });
    for (const target of ids) all.push({ type: 'attack', unit: id, target });
  }
  return all;
}

describe('legalCommands', () => {
  it('lists exactly the commands the rules accept: every possible command tried now and then in random games, with resignations', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), fc.shuffledSubarray(['wei', 'shu', 'wu', 'jin'], { minLength: 2, maxLength: 4 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed, players, walkSeed) => {
        const g = newGame(threeKingdoms, { turnLimit: 8 }, players, seed);
        const rnd = chooser(walkSeed);
        const key = (c: Command) => JSON.stringify(c, Object.keys(c).sort());
        for (let step = 1; status(g).stage !== 'FINISHED'; step++) {
          const seat = status(g).awaiting[0]!.seat;
          const options = legal(g, seat);
          expect(options.length).toBeGreaterThan(1);
          if (step % 23 === 0 || status(g).awaiting[0]!.kind === 'RETREAT' || g.log.at(-1)?.event.type === 'PlayerResigned') {
            const accepted = everyCommand(g.state.game)
              .filter((c) => decideMatch(threeKingdoms, g.state, c, asSeat(seat), new SeededRandom(seed, g.state.draws)).ok)
              .map(key);
            expect(accepted.sort()).toEqual(options.map(key).sort());
          }
          // Now and then a player still in resigns, whoever's decision it is (a pending retreat included).
          const still = players.filter((p) => !g.state.game.out.includes(p));
          const [who, command] = rnd(120) === 0
            ? [still[rnd(still.length)]!, { type: 'resign' }]
            : [seat, status(g).stage === 'SETUP' ? options[rnd(options.length)]! : pick(g, seat, options, rnd)];
          expect(attempt(g, who, command).ok).toBe(true);
          checkState(g.state.game);
          checkSettled(g.state.game);
        }
      }),
      { numRuns: RUNS ?? 6 },
    );
  });
});
