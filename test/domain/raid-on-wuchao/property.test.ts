/**
 * Random games from random seeds, choosing only from legalCommands. After every event the
 * rules' invariants must hold; every listed command must be accepted, a sample of unlisted
 * ones refused; and every game must end with a result by round 8.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asSeat, decideMatch, SeededRandom, type Command, type GameEvent } from '../../../src/domain/kernel/index.ts';
import { raidOnWuchao, type WuchaoState } from '../../../src/domain/raid-on-wuchao/index.ts';
import { STACKING_LIMIT, type Side } from '../../../src/domain/raid-on-wuchao/data.ts';
import { activeSide, neighbours, stepsLeft, unitsIn } from '../../../src/domain/raid-on-wuchao/state.ts';
import { attempt, legal, newGame, status, type Played } from '../../support/play.ts';

type Game = Played<WuchaoState>;

/** More random games off CI: PROPERTY_RUNS=3000 npx vitest run <this file>. */
const RUNS = process.env.PROPERTY_RUNS ? Number(process.env.PROPERTY_RUNS) : undefined;

function accepts(game: Game, seat: string, command: Command): boolean {
  return decideMatch(raidOnWuchao, game.state, command, asSeat(seat), new SeededRandom(game.seed, game.state.draws)).ok;
}

/** Invariants of the rules, checked after every event. */
class Checker {
  private lost = 0;
  private xuYou: number;
  private lastResolved: number | null = null;
  constructor(private prev: WuchaoState) {
    this.xuYou = prev.xuYou;
  }

  check(s: WuchaoState, event: GameEvent) {
    const prev = this.prev;
    expect(JSON.parse(JSON.stringify(event))).toEqual(event);
    // Unit counts: every token is on the map, waiting to be placed, or destroyed.
    expect(Object.keys(s.units)).toHaveLength(13);
    expect(Object.values(s.units).filter((u) => u.side === 'cao')).toHaveLength(4);
    for (const u of Object.values(s.units)) {
      if (u.destroyed) expect(u.space).toBeNull();
      else if (u.space !== null) expect(s.map.spaces).toContain(u.space);
      else expect(s.phase).toBe('setup');
    }
    const active = activeSide(s);
    const moving = s.phase === 'caoMovement' || s.phase === 'yuanMovement';
    for (const sp of s.map.spaces) {
      const cao = unitsIn(s, sp, 'cao').length;
      const yuan = unitsIn(s, sp, 'yuan').length;
      // Stacking: at most five a side, except for the moving side before its movement has ended and been checked.
      for (const [side, n] of [['cao', cao], ['yuan', yuan]] as [Side, number][]) {
        if (!(moving && side === active)) expect(n, `${side} in ${sp} (${event.type})`).toBeLessThanOrEqual(STACKING_LIMIT);
      }
      // Sides share a space only between the attacker's entry and the end of its combat; the defender keeps control.
      if (s.result) continue; // Cao Cao's destruction ends the game mid-combat
      if (cao && yuan) {
        expect(active, `mixed ${sp} in ${s.phase}`).not.toBeNull();
        expect(s.control[sp]).toBe(active === 'cao' ? 'yuan' : 'cao');
      } else if (s.combat?.space === sp) {
        // Between the last defender's removal and the assault's result.
      } else if (cao) expect(s.control[sp], `control of ${sp} after ${JSON.stringify(event)}`).toBe('cao');
      else if (yuan) expect(s.control[sp], `control of ${sp} after ${JSON.stringify(event)}`).toBe('yuan');
    }
    // Damage bookkeeping: steps lost equal damage allocated plus units lost without room to withdraw.
    if (event.type === 'CombatResolved') {
      const c = s.combat!;
      const capacity = c.defenders.reduce((n, d) => n + stepsLeft(prev, d), 0);
      expect(event.damage).toBe(Math.min(capacity, Math.max(0, (event.attackTotal as number) - (event.defense as number))));
      this.lastResolved = event.damage as number;
    }
    if (event.type === 'DamageAllocated') {
      const units = event.units as string[];
      expect(units.length).toBe(this.lastResolved);
      for (const u of units) expect(prev.combat!.defenders).toContain(u);
      this.lost += units.length;
    }
    if (event.type === 'AssaultFailed') {
      for (const w of event.withdrawals as { unit: string; to: string | null }[]) {
        if (w.to === null) this.lost += stepsLeft(prev, w.unit);
        // Each attacker withdraws back along its own path.
        else expect(prev.paths[w.unit]!.slice(0, -1)).toContain(w.to);
      }
    }
    const lostNow = Object.keys(s.units).reduce((n, id) => n + (2 - stepsLeft(s, id)), 0);
    expect(lostNow).toBe(this.lost);
    // The attacker never takes damage.
    if (s.combat) for (const a of s.combat.attackers) expect(stepsLeft(s, a)).toBe(stepsLeft(prev, a) || stepsLeft(s, a));
    // Xu You: two one-use tokens.
    expect(s.xuYou).toBeGreaterThanOrEqual(0);
    expect(s.xuYou).toBeLessThanOrEqual(this.xuYou);
    this.xuYou = s.xuYou;
    expect(s.round).toBeLessThanOrEqual(8);
    if (s.granariesRaided && !prev.granariesRaided) expect(event).toMatchObject({ type: 'GranariesRaided', round: 2 });
    this.prev = s;
  }
}

function distances(s: WuchaoState, targets: string[]): Record<string, number> {
  const d: Record<string, number> = {};
  const queue = [...targets];
  for (const t of targets) d[t] = 0;
  while (queue.length) {
    const x = queue.shift()!;
    for (const n of neighbours(s, x)) if (d[n] === undefined) (d[n] = d[x]! + 1), queue.push(n);
  }
  return d;
}

/**
 * Steer the random walk so games reach every rule and ending: Cao heads for the granaries
 * (or, when timid, mostly stays put); Yuan heads for A1, for Cao's units, or masses on one
 * space (which makes the stacking limit bite).
 */
interface Plan {
  caoTimid: boolean;
  yuan: 'camp' | 'cao' | 'mass';
  massAt: string;
}

function plan(s: WuchaoState, rnd: () => number): Plan {
  const modes = ['camp', 'cao', 'mass'] as const;
  return { caoTimid: rnd() < 0.2, yuan: modes[Math.floor(rnd() * 3)]!, massAt: ['F2', 'E2', 'G1', 'D1'][Math.floor(rnd() * 4)]! };
}

function choose(game: Game, seat: string, options: Command[], rnd: () => number, p: Plan): Command {
  const s = game.state.game;
  const moves = options.filter((c) => c.type === 'move');
  const keen = seat === 'cao' && p.caoTimid ? 0.2 : 0.9;
  if (moves.length && rnd() < keen) {
    const targets =
      seat === 'cao'
        ? s.map.granaries
        : p.yuan === 'camp'
          ? [s.map.camp]
          : p.yuan === 'mass'
            ? [p.massAt]
            : Object.values(s.units).filter((u) => u.side === 'cao' && u.space).map((u) => u.space!);
    const d = distances(s, targets);
    const closer = moves.filter((m) => (d[m.to as string] ?? 99) < (d[s.units[m.unit as string]!.space!] ?? 99));
    const pool = closer.length && rnd() < 0.8 ? closer : moves;
    return pool[Math.floor(rnd() * pool.length)]!;
  }
  if (moves.length && options.at(-1)!.type === 'endMovement') return rnd() < 0.5 ? options.at(-1)! : moves[Math.floor(rnd() * moves.length)]!;
  return options[Math.floor(rnd() * options.length)]!;
}

/** Commands a client might send that are not on the list. */
function unlisted(game: Game, rnd: () => number): Command[] {
  const s = game.state.game;
  const unit = s.tokens[Math.floor(rnd() * s.tokens.length)]!.id;
  const space = s.map.spaces[Math.floor(rnd() * s.map.spaces.length)]!;
  const n = Math.floor(rnd() * 4);
  return [
    { type: 'move', unit, to: space },
    { type: 'placeUnit', unit, space },
    { type: 'stepBack', unit },
    { type: 'endMovement' },
    { type: 'reroll' },
    { type: 'acceptRoll' },
    { type: 'allocateDamage', units: Array(n).fill(unit) },
    { type: 'withdraw', withdrawals: [{ unit, from: space, to: space }] },
    // A listed allocation in another order names the same choice, but only the listed form is a command.
    ...(s.combat && s.combat.damage ? allocationsReversed(game) : []),
  ];
}

function allocationsReversed(game: Game): Command[] {
  return legal(game, game.state.game.combat!.attackerSide === 'cao' ? 'yuan' : 'cao')
    .filter((c) => c.type === 'allocateDamage')
    .map((c) => ({ type: 'allocateDamage', units: [...(c.units as string[])].reverse() }));
}

/** What the random games went through, to check the steering reaches the rules under test. */
const seen: Record<string, number> = {};

function playOut(seed: string, steer: number, checkAll: boolean) {
  let r = steer >>> 0 || 1;
  const rnd = () => ((r = (Math.imul(r, 1664525) + 1013904223) >>> 0), r / 2 ** 32);
  const game = newGame(raidOnWuchao, {}, ['cao', 'yuan'], seed);
  const checker = new Checker(game.state.game);
  const p = plan(game.state.game, rnd);
  for (let step = 0; step < 5000 && status(game).stage !== 'FINISHED'; step++) {
    const st = status(game);
    expect(st.awaiting).toHaveLength(1);
    const seat = st.awaiting[0]!.seat;
    const other = seat === 'cao' ? 'yuan' : 'cao';
    expect(raidOnWuchao.legalCommands(game.state.game, other)).toEqual([]);
    const options = legal(game, seat);
    expect(options.length).toBeGreaterThan(0);
    // The view's movement left is what a client offers moves to: exactly the units with a listed move.
    const view = raidOnWuchao.view(game.state.game, seat) as { units: { id: string; side: string; movementLeft: number }[] };
    const withPoints = view.units.filter((u) => u.movementLeft > 0 && (st.awaiting[0]!.kind === 'MOVE' ? u.side === seat : false)).map((u) => u.id);
    const listedMovers = [...new Set(options.filter((c) => c.type === 'move').map((c) => c.unit as string))];
    expect(listedMovers.sort()).toEqual(withPoints.sort());
    const listed = new Set(options.map((c) => JSON.stringify(c)));
    if (checkAll || step % 7 === 0) for (const c of options) expect(accepts(game, seat, c), JSON.stringify(c)).toBe(true);
    for (const c of unlisted(game, rnd)) {
      if (!listed.has(JSON.stringify(c))) expect(accepts(game, seat, c), `unlisted ${JSON.stringify(c)} in ${st.phase}`).toBe(false);
    }
    const d = attempt(game, seat, choose(game, seat, options, rnd, p), (state, event) => checker.check(state.game, event));
    expect(d.ok).toBe(true);
  }
  const end = status(game);
  // A finished game has no combat pending or in progress, and no unit with movement left.
  const last = raidOnWuchao.view(game.state.game, null) as { pendingCombats: string[]; combat: unknown; units: { movementLeft: number }[] };
  expect(last.pendingCombats).toEqual([]);
  expect(last.combat).toBeNull();
  expect(last.units.every((u) => u.movementLeft === 0)).toBe(true);
  for (const rec of game.log) {
    const e = rec.event;
    const key = e.type === 'UnitSteppedBack' ? `UnitSteppedBack${e.automatic ? '' : ':chosen'}` : e.type === 'DamageAllocated' ? `DamageAllocated${e.automatic ? '' : ':chosen'}` : e.type;
    seen[key] = (seen[key] ?? 0) + 1;
  }
  if (end.result) seen[`won:${end.result.winners[0]}:${end.result.reason.split(':')[0]}`] = (seen[`won:${end.result.winners[0]}:${end.result.reason.split(':')[0]}`] ?? 0) + 1;
  expect(end.stage).toBe('FINISHED');
  expect(end.result!.winners).toHaveLength(1);
  expect(end.round).toBeLessThanOrEqual(8);
  return end.result!;
}

describe('random games choosing only from legalCommands', () => {
  it('keep the invariants, accept exactly the listed commands, and end by round 8', () => {
    const reasons = new Set<string>();
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), fc.integer(), (seed, steer) => {
        const result = playOut(seed, steer, false);
        reasons.add(result.reason.split(':')[0]!);
      }),
      { numRuns: RUNS ?? 30 },
    );
    // The steering reaches several endings.
    expect(reasons.size).toBeGreaterThanOrEqual(2);
    expect(seen.CombatBegan).toBeGreaterThan(0);
    expect(seen['DamageAllocated:chosen']).toBeGreaterThan(0);
  });

  it('every listed command is accepted at every step of a few games', () => {
    fc.assert(fc.property(fc.integer(), (steer) => void playOut(`all-${steer}`, steer, true)), { numRuns: RUNS ?? 6 });
  });
});
