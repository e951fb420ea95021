/**
 * Nothing hidden reaches the other seat or a spectator before the rules reveal it: the
 * identity of units that have not fought (view, every event of the log as redacted now,
 * the awaited prompts), the Movement a hidden unit spent, the class of a hidden army's
 * overflow, a Surprise Reserve's candidates, and a secret number before both are in.
 *
 * The view is checked by what it depends on, whatever its fields are called: the same
 * position with other hidden units (other types, keys, Movement left, units still to place)
 * or another secret number gives the viewer the very same view, while the owner's view
 * changes (so the disguise touched what is secret). The words searched for in the other
 * channels are first found in the owner's own view, so they are the ones a leak would show.
 */
import { describe, expect, it } from 'vitest';
import { matchStatus, visibleTo, type GameEvent, type MatchState } from '../../../src/domain/kernel/index.ts';
import { warchon } from '../../../src/domain/warchon/index.ts';
import { ARMIES, type Army, type WarchonState } from '../../../src/domain/warchon/types.ts';
import { legal, newGame, status, attempt, chooser as rng, type Played } from '../../support/play.ts';
import { SEATS } from './helpers.ts';

/** The words of `army`'s that `viewer` must not see now: keys of unplaced and unrevealed units, and the type keys and names of types `viewer` has not seen. */
function secretsOf(s: WarchonState, viewer: Army | null, army: Army) {
  const knownTypes = new Set<string>();
  for (const u of Object.values(s.units)) if (u.army === viewer || u.revealed) knownTypes.add(u.type);
  const keys = [...s.unplaced[army]];
  const types = new Set<string>();
  for (const u of Object.values(s.units)) {
    if (u.army !== army || u.revealed) continue;
    keys.push(u.key);
    if (!knownTypes.has(u.type)) types.add(u.type);
  }
  return { keys, types: [...types], names: [...types].map((t) => s.types[t]!.name) };
}

/** `word` as a whole word (a key, a type key, a name) anywhere in `text`, in any case: quoted or in a sentence. */
function mentions(text: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![a-z0-9-])${escaped}(?![a-z0-9-])`, 'i').test(text);
}

/** Another type of the same army (the next in its roster), so that a disguised unit differs in every stat the roster gives. */
function otherType(s: WarchonState, army: Army, type: string): string {
  const own = Object.values(s.types).filter((t) => t.army === army).map((t) => t.key);
  return own[(own.indexOf(type) + 1) % own.length]!;
}

/** The same position with other hidden units for every army but `viewer`'s: other types and keys, Movement left, units still to place. */
function otherUnits(s: WarchonState, viewer: Army | null): WarchonState {
  const d = structuredClone(s) as WarchonState;
  let n = 90;
  for (const army of ARMIES) {
    if (army === viewer) continue;
    d.unplaced[army] = d.unplaced[army].map((key) => `${otherType(s, army, key.replace(/-\d+$/, ''))}-${n++}`);
    for (const u of Object.values(d.units)) {
      if (u.army !== army || u.revealed) continue;
      u.type = otherType(s, army, u.type);
      u.key = `${u.type}-${n++}`;
      u.hitsTaken = 0;
      u.movesLeft += 1;
    }
  }
  return d;
}

/** The same position with another secret number from every army but `viewer`'s that has committed one (null: nothing to change). */
function otherNumbers(s: WarchonState, viewer: Army | null): WarchonState | null {
  const call = s.battle?.call;
  if (!call) return null;
  const d = structuredClone(s) as WarchonState;
  let changed = false;
  for (const army of ARMIES) {
    const n = call.commits[army];
    if (army === viewer || n === null) continue;
    d.battle!.call!.commits[army] = (n % 5) + 1;
    changed = true;
  }
  return changed ? d : null;
}

/** How often each check met its secret (every kind must have been met, or the walk did not test it). */
type Met = Record<'units' | 'numbers' | 'placed' | 'committed' | 'moved', number>;

function checkChannels(match: MatchState<WarchonState>, log: GameEvent[], met: Met) {
  const s = match.game;
  if (matchStatus(warchon, match).stage === 'FINISHED') return;
  const viewOf = (state: WarchonState, viewer: Army | null) => warchon.view(state, viewer) as any;
  const ownView = Object.fromEntries(ARMIES.map((a) => [a, JSON.stringify(viewOf(s, a))])) as Record<Army, string>;
  for (const viewer of ['azuthkan', 'celestine', null] as (Army | null)[]) {
    const view = viewOf(s, viewer);
    const owners = ARMIES.filter((a) => a !== viewer);

    // The view does not depend on the other army's hidden units, though its owner's does.
    const disguised = otherUnits(s, viewer);
    expect(viewOf(disguised, viewer), `${viewer}'s view depends on the other army's hidden units`).toEqual(view);
    for (const a of owners) {
      if (secretsOf(s, viewer, a).keys.length === 0) continue;
      expect(JSON.stringify(viewOf(disguised, a)), `the disguise of ${a}'s hidden units changes nothing ${a} sees`).not.toBe(ownView[a]);
      met.units++;
    }
    // Nor on the other army's secret number, though its owner's does.
    const renumbered = otherNumbers(s, viewer);
    if (renumbered) {
      expect(viewOf(renumbered, viewer), `${viewer}'s view depends on the other army's secret number`).toEqual(view);
      for (const a of owners) if (s.battle!.call!.commits[a] !== null) expect(JSON.stringify(viewOf(renumbered, a))).not.toBe(ownView[a]);
      met.numbers++;
    }
    for (const u of view.units) {
      const unit = s.units[u.id]!;
      if (unit.army !== viewer && !unit.revealed) {
        expect(u).toMatchObject({ known: false, key: null, type: null, name: null, size: null, movement: null, as: null, ds: null, hits: null, maxHits: null, traits: null, movesLeft: null });
      }
    }
    for (const entry of view.unplaced) if (entry.army !== viewer) expect(entry.units).toBeNull();
    // Secret numbers: only your own, until both are in.
    if (s.battle?.call) {
      expect(view.battle.numberCall.yourNumber).toBe(viewer ? s.battle.call.commits[viewer] : null);
    }

    // Every event of the log (the command's own so far included), as redacted for this viewer now.
    const seen: string[] = [];
    // The spreads' printed texts name units ("Goblin Assassins gain +1 CS"): public data, left out of the word check.
    seen.push(JSON.stringify({ ...view, spreads: null }));
    expect(JSON.stringify(view.spreads)).not.toMatch(/"[a-z]+(-[a-z]+)*-\d+"/);
    for (const event of log) {
      const e = visibleTo(warchon, match, viewer).event(event) as any;
      seen.push(JSON.stringify(e));
      if (e.type === 'UnitPlaced' && (e.army === viewer || s.units[e.marker]?.revealed)) expect(e.unit).not.toBeNull(); // shown once the rules reveal it
      // A Surprise Reserve's candidates: the Controlling army's only. (Seldom met by these walks, like CapacityExceeded
      // below: both are pinned by their own tests, below and in random-events.test.ts › 2 Magma Flow.)
      if (e.type === 'ChoicesOffered' && e.purpose === 'reserve') for (const c of e.choices) if (c.seat !== viewer) expect(c.options).toEqual([]);
      if (e.army === viewer) continue;
      // What the owner sees of the same event: the secret is in it (positive control).
      const own = () => visibleTo(warchon, match, e.army).event(event) as any;
      if (e.type === 'NumberCommitted' && e.generation >= s.generations) {
        expect(own().number).toEqual(expect.any(Number));
        expect(e.number).toBeNull();
        met.committed++;
      }
      if (e.type === 'UnitPlaced' && !s.units[e.marker]?.revealed) {
        expect(own()).toMatchObject({ unit: expect.any(String), unitType: expect.any(String) });
        expect(e).toMatchObject({ unit: null, unitType: null });
        met.placed++;
      }
      // A hidden unit's move: where it went, never the Movement it spent.
      if (e.type === 'UnitMoved' && !s.units[e.unit]?.revealed) {
        expect(own().moves).toEqual(expect.any(Number));
        expect(e.moves).toBeNull();
        met.moved++;
      }
      // Which class (aerial or not) of the other army's units is over Capacity.
      if (e.type === 'CapacityExceeded') {
        expect(own().aerial).toEqual(expect.any(Boolean));
        expect(e.aerial).toBeNull();
      }
    }
    seen.push(JSON.stringify(matchStatus(warchon, match).awaiting));
    const all = seen.join('\n');
    for (const a of owners) {
      const { keys, types, names } = secretsOf(s, viewer, a);
      for (const word of [...keys, ...types, ...names]) {
        // The owner's own view shows the word (so it is what a leak would show)...
        expect(mentions(ownView[a], word), `${word} is not in ${a}'s own view`).toBe(true);
        // ...and nothing this viewer sees does.
        expect(mentions(all, word), `${word} leaked to ${viewer}`).toBe(false);
      }
    }
  }
}

describe('hidden information never reaches the other seat or a spectator', () => {
  for (const numbers of ['players', 'server'] as const) {
    it(`in every channel the domain controls, after every event (numbers: ${numbers})`, () => {
      const met: Met = { units: 0, numbers: 0, placed: 0, committed: 0, moved: 0 };
      for (let g = 0; g < 6; g++) {
        const game: Played<WarchonState> = newGame(warchon, { numbers, turnLimit: 30 }, SEATS, `secrets-${numbers}-${g}`);
        const pick = rng(1000 + g);
        checkChannels(game.state, game.log.map((r) => r.event), met);
        for (let step = 0; step < 400 && status(game).stage !== 'FINISHED'; step++) {
          const awaiting = status(game).awaiting;
          const seat = awaiting[pick(awaiting.length)]!.seat;
          const options = legal(game, seat);
          const moves = options.filter((c) => c.type === 'moveUnit');
          const cmd = moves.length && pick(10) < 7 ? moves[pick(moves.length)]! : options[pick(options.length)]!;
          // The command's events are checked as each one is folded, with the log before them.
          const before = game.log.map((r) => r.event);
          const batch: GameEvent[] = [];
          const r = attempt(game, seat, cmd, (state, event) => {
            batch.push(event);
            checkChannels(state, [...before, ...batch], met);
          });
          expect(r.ok).toBe(true);
        }
      }
      // Every kind of secret was met while hidden (and its check shown able to fail by the owner's view of it).
      expect(met.units).toBeGreaterThan(0);
      expect(met.placed).toBeGreaterThan(0);
      expect(met.moved).toBeGreaterThan(0);
      if (numbers === 'players') {
        expect(met.numbers).toBeGreaterThan(0);
        expect(met.committed).toBeGreaterThan(0);
      }
    });
  }
});

describe('a Surprise Reserve', () => {
  it("shows its candidates (which hidden units can reach the battle) to the Controlling army only", async () => {
    const { arranged, generate, lastEvent } = await import('./helpers.ts');
    const { submit } = await import('../../support/play.ts');
    const game = arranged({
      azuthkan: [{ type: 'baphite-swarm', at: 1 }, { type: 'deathknoll-ogres', at: 7 }],
      celestine: [{ type: 'celestine-paladins', at: 1 }, { type: 'celestine-paladins', at: 3 }, { type: 'celestine-war-angels', at: 6 }],
    });
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 5, true);
    generate(game, 4);
    const offered = lastEvent(game, 'ChoicesOffered');
    expect(offered.choices[0].options).toHaveLength(2);
    for (const viewer of ['azuthkan', null]) expect((warchon.redact!(offered, viewer, game.state.game) as any).choices[0]).toMatchObject({ seat: 'celestine', options: [] });
    expect(warchon.redact!(offered, 'celestine', game.state.game)).toEqual(offered);
  });
});
