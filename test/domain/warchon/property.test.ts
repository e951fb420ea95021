/**
 * Many random games from random seeds, choosing only among legalCommands: the invariants
 * hold after every event, every listed command is accepted, unlisted ones are refused,
 * and every game ends (by conquest or at the turn limit).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asSeat, decideMatch, evolveMatch, initialMatch, SeededRandom, type Command, type GameEvent, type MatchState } from '../../../src/domain/kernel/index.ts';
import { distance, hitsLeft, sizeIn, typeOf } from '../../../src/domain/warchon/battlefield.ts';
import { warchon } from '../../../src/domain/warchon/index.ts';
import { ARMIES, type WarchonState } from '../../../src/domain/warchon/types.ts';
import { attempt, legal, newGame, status, type Played } from '../../support/play.ts';
import { DEMO_ROSTER } from '../../../src/domain/warchon/data.ts';
import { SEATS, traitType } from './helpers.ts';

/** The demo armies plus units with the traits the tables name (Berserk, Tactics, Construct, Brimstone Dragons, Aquatic). */
const EXTENDED = [
  ...DEMO_ROSTER,
  traitType('berserker', 'azuthkan', ['Berserk'], { size: 1, movement: 2, as: 3, ds: 1 }),
  traitType('brimstone-dragons', 'azuthkan', ['Aerial', 'Brimstone Dragons'], { size: 2, movement: 3, as: 3, ds: 3 }, 2),
  traitType('war-chief', 'celestine', ['Tactics'], { size: 1, movement: 2, as: 2, ds: 2 }),
  traitType('iron-golem', 'celestine', ['Construct', 'Berserk'], { size: 2, movement: 1, as: 2, ds: 3 }),
  traitType('river-sprite', 'celestine', ['Aquatic'], { size: 1, movement: 3, as: 1, ds: 1 }),
];

function invariants(s: WarchonState, event: GameEvent, ordered: Map<string, number[]>): void {
  for (const u of Object.values(s.units)) {
    if (u.destroyed) continue;
    if (u.spread === null) throw new Error(`${u.id} is on no spread`);
    expect(s.spreads.some((sp) => sp.number === u.spread)).toBe(true);
    expect(hitsLeft(s, u)).toBeGreaterThan(0);
    expect(u.hitsTaken).toBeGreaterThanOrEqual(0);
    if (u.temporary && !s.result) expect(s.battle?.spread).toBe(u.spread);
    if (u.fightsFor) expect(s.battle).not.toBeNull();
    if (!u.revealed) expect(typeOf(s, u).key).toBe(u.type);
  }
  // Capacity holds, except in a spread units were just forced into, until the owner has destroyed the excess.
  for (const sp of s.spreads) {
    for (const army of ARMIES) {
      for (const aerial of [false, true]) {
        if (sizeIn(s, sp.number, army, aerial) > sp.capacity) {
          expect(s.forcedInto, `${army} over Capacity in ${sp.name} after ${event.type}`).toContain(sp.number);
        }
      }
    }
  }
  // A retreat goes to a neighbouring spread free of enemy units when it is ordered, and the unit
  // may take any of those options, whatever the other army has done since.
  // A move is one event, walked or flown, and spends at least the spreads between.
  if (event.type === 'UnitMoved') expect(event.moves as number, `${event.unit} moved ${event.from} -> ${event.to}`).toBeGreaterThanOrEqual(distance(s, event.from as number, event.to as number));
  if (event.type === 'RetreatsOrdered') {
    for (const r of event.retreats as { unit: string; seat: string; options: number[] }[]) {
      for (const to of r.options) expect(Object.values(s.units).some((o) => !o.destroyed && o.spread === to && o.army !== r.seat), `${r.unit} offered a spread among enemies`).toBe(false);
      ordered.set(r.unit, r.options);
    }
  }
  if (event.type === 'UnitRetreated') {
    expect(ordered.get(event.unit as string), `${event.unit} retreated where it was not ordered`).toContain(event.to);
    ordered.delete(event.unit as string);
  }
  // A retreat once ordered is made: its unit is destroyed only by what destroys units, never for want of a spread.
  if (event.type === 'UnitDestroyed' && ordered.has(event.unit as string)) expect(String(event.cause)).not.toMatch(/nowhere to retreat/);
  if (s.battle) expect(['battles', 'over']).toContain(s.phase);
  if (s.result) expect(s.pending).toEqual([]);
  for (const p of s.pending) expect(ARMIES).toContain(p.seat);
  expect(s.eventSpreads.length).toBe(new Set(s.eventSpreads).size);
}

/** After each command: over Capacity only while the owner is asked to destroy units. */
function settled(s: WarchonState): void {
  for (const sp of s.spreads) {
    for (const army of ARMIES) {
      for (const aerial of [false, true]) {
        if (sizeIn(s, sp.number, army, aerial) > sp.capacity) {
          const waiting = s.pending.some((p) => (p.kind === 'DESTROY_UNIT' && p.seat === army) || p.kind === 'RETREAT');
          expect(waiting, `${army} left over Capacity in ${sp.name}`).toBe(true);
        }
      }
    }
  }
  // Both armies still have units while the game runs: the end comes with the last unit, once
  // every Hit of the result that took it has been assigned.
  if (!s.result && s.turn > 0 && !s.pending.some((p) => p.kind === 'ALLOCATE_DAMAGE')) {
    for (const army of ARMIES) expect(Object.values(s.units).some((u) => u.army === army && !u.destroyed && !u.temporary)).toBe(true);
  }
}

function accepted(game: Played<WarchonState>, seat: string, cmd: Command): boolean {
  const d = decideMatch(warchon, game.state as MatchState<WarchonState>, cmd, asSeat(seat), new SeededRandom(game.seed, game.state.draws));
  return d.ok;
}

/** Commands of every type with plausible arguments: those not listed must be refused. */
function probes(s: WarchonState, pick: (n: number) => number): Command[] {
  const ids = [...Object.keys(s.units), 'nobody'];
  const unit = () => ids[pick(ids.length)]!;
  const spread = () => 1 + pick(8);
  return [
    { type: 'placeUnit', unit: 'baphite-swarm-1', spread: spread() },
    { type: 'moveUnit', unit: unit(), to: spread() },
    { type: 'endMovement' },
    { type: 'goBerserk', unit: unit() },
    { type: 'endStrategy' },
    { type: 'commitNumber', number: 1 + pick(5) },
    { type: 'assignHit', unit: unit() },
    { type: 'chooseUnit', unit: unit() },
    { type: 'passChoice' },
    { type: 'commitToBridge', unit: unit() },
    { type: 'crossBridge' },
    { type: 'retreatUnit', unit: unit(), to: spread() },
    { type: 'destroyUnit', unit: unit() },
  ];
}

/** PROPERTY_RUNS=3000 plays a long run off CI (default 30). */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 30);

describe('random games through legalCommands', () => {
  it('keep every invariant after every event and always end', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.constantFrom('players', 'server'), fc.integer({ min: 5, max: 9 }), fc.boolean(), (seed, numbers, moveBias, extended) => {
        const options = extended ? { numbers, turnLimit: 30, roster: EXTENDED } : { numbers, turnLimit: 30 };
        const game = newGame(warchon, options, SEATS, `prop-${seed}`);
        const ordered = new Map<string, number[]>();
        let x = seed + 1;
        const pick = (n: number) => {
          x = (x * 48271) % 2147483647;
          return x % n;
        };
        for (let step = 0; step < 3000 && status(game).stage !== 'FINISHED'; step++) {
          const st = status(game);
          const awaitedSeats = new Set(st.awaiting.map((p) => p.seat));
          for (const seat of SEATS) {
            const options = legal(game, seat);
            if (awaitedSeats.has(seat)) expect(options.length, `${seat} is awaited but has no legal command`).toBeGreaterThan(0);
            else expect(options).toEqual([]);
            // Every listed command is accepted (decide is pure: nothing is applied here).
            if (step % 3 === 0) for (const c of options) expect(accepted(game, seat, c), JSON.stringify(c)).toBe(true);
            // A sample of commands not listed is refused.
            const listed = new Set(options.map((c) => JSON.stringify(c)));
            for (const c of probes(game.state.game, pick)) if (!listed.has(JSON.stringify(c))) expect(accepted(game, seat, c), `${seat} ${JSON.stringify(c)}`).toBe(false);
          }
          const seat = st.awaiting[pick(st.awaiting.length)]!.seat;
          const options = legal(game, seat);
          const moves = options.filter((c) => c.type === 'moveUnit');
          const cmd = moves.length && pick(10) < moveBias ? moves[pick(moves.length)]! : options[pick(options.length)]!;
          const r = attempt(game, seat, cmd, (state, event) => {
            seen.add(event.type);
            invariants(state.game, event, ordered);
          });
          expect(r.ok).toBe(true);
          settled(game.state.game);
        }
        // Event sourcing: folding the log again gives the same state (evolve never rolls).
        let replay = initialMatch(warchon, { options, players: SEATS });
        for (const rec of game.log) replay = evolveMatch(warchon, replay, rec);
        expect(replay).toEqual(game.state);
        const end = status(game);
        expect(end.stage).toBe('FINISHED');
        expect(end.result).not.toBeNull();
        if (end.result!.winners.length === 0) expect(end.result!.reason).toMatch(/draw/);
      }),
      { numRuns: RUNS },
    );
    // The walk reaches the rules that matter, not only movement.
    for (const type of ['BattleBegan', 'NumberCommitted', 'HitAssigned', 'RandomEventDrawn', 'StrategyRoundBegan', 'GameEnded']) expect(seen).toContain(type);
  }, Math.max(300_000, RUNS * 1_000));
});
