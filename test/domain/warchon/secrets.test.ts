/**
 * Nothing hidden reaches the other seat or a spectator before the rules reveal it: the
 * identity of units that have not fought (view, every event of the log as redacted now,
 * the awaited prompts) and a secret number before both are in.
 */
import { describe, expect, it } from 'vitest';
import { matchStatus, visibleTo, type MatchState } from '../../../src/domain/kernel/index.ts';
import { warchon } from '../../../src/domain/warchon/index.ts';
import type { Army, WarchonState } from '../../../src/domain/warchon/types.ts';
import { legal, newGame, status, attempt, chooser as rng, type Played } from '../../support/play.ts';
import { SEATS } from './helpers.ts';

/** Everything `viewer` must not see now. */
function secrets(s: WarchonState, viewer: Army | null) {
  const hiddenKeys: string[] = [];
  const hiddenNames = new Set<string>();
  const knownTypes = new Set<string>();
  for (const u of Object.values(s.units)) if (u.army === viewer || u.revealed) knownTypes.add(u.type);
  for (const army of ['azuthkan', 'celestine'] as Army[]) {
    if (army === viewer) continue;
    for (const key of s.unplaced[army]) hiddenKeys.push(key);
    for (const u of Object.values(s.units)) {
      if (u.army !== army || u.revealed) continue;
      hiddenKeys.push(u.key);
      if (!knownTypes.has(u.type)) hiddenNames.add(s.types[u.type]!.name);
    }
  }
  return { hiddenKeys, hiddenNames: [...hiddenNames] };
}

function checkChannels(game: Played<WarchonState>, match: MatchState<WarchonState>) {
  const s = match.game;
  if (matchStatus(warchon, match).stage === 'FINISHED') return;
  for (const viewer of ['azuthkan', 'celestine', null] as (Army | null)[]) {
    const { hiddenKeys, hiddenNames } = secrets(s, viewer);
    const seen: string[] = [];
    const view = warchon.view(s, viewer) as any;
    // The spreads' printed texts name units ("Goblin Assassins gain +1 CS"): public data, left out of the name check.
    seen.push(JSON.stringify({ ...view, spreads: null }));
    expect(JSON.stringify(view.spreads)).not.toMatch(/"[a-z]+(-[a-z]+)*-\d+"/);
    for (const u of view.units) {
      const unit = s.units[u.id]!;
      if (unit.army !== viewer && !unit.revealed) {
        expect(u).toMatchObject({ known: false, key: null, type: null, name: null, size: null, movement: null, as: null, ds: null, hits: null, traits: null, movesLeft: null });
      }
    }
    for (const entry of view.unplaced) if (entry.army !== viewer) expect(entry.units).toBeNull();
    // Secret numbers: only your own, until both are in.
    if (s.battle?.call) {
      expect(view.battle.numberCall.yourNumber).toBe(viewer && s.battle.call.commits[viewer] !== undefined ? s.battle.call.commits[viewer as Army] : null);
    }
    for (const rec of game.log) {
      const e = visibleTo(warchon, match, viewer).event(rec.event) as any;
      seen.push(JSON.stringify(e));
      if (e.type === 'NumberCommitted' && e.army !== viewer && e.generation >= s.generations) expect(e.number).toBeNull();
      if (e.type === 'UnitPlaced') {
        const revealed = s.units[e.marker]?.revealed || e.army === viewer;
        // Hidden while unrevealed, and shown once the rules reveal it.
        if (revealed) expect(e.unit).not.toBeNull();
        else expect(e).toMatchObject({ unit: null, unitType: null });
      }
    }
    seen.push(JSON.stringify(matchStatus(warchon, match).awaiting));
    const all = seen.join('\n');
    for (const key of hiddenKeys) expect(all.includes(`"${key}"`), `${key} leaked to ${viewer}`).toBe(false);
    for (const name of hiddenNames) expect(all.includes(name), `${name} leaked to ${viewer}`).toBe(false);
  }
}

describe('hidden information never reaches the other seat or a spectator', () => {
  for (const numbers of ['players', 'server'] as const) {
    it(`in every channel the domain controls, after every event (numbers: ${numbers})`, () => {
      for (let g = 0; g < 6; g++) {
        const game = newGame(warchon, { numbers, turnLimit: 30 }, SEATS, `secrets-${numbers}-${g}`);
        const pick = rng(1000 + g);
        checkChannels(game, game.state);
        let checkedCommit = false;
        for (let step = 0; step < 400 && status(game).stage !== 'FINISHED'; step++) {
          const awaiting = status(game).awaiting;
          const seat = awaiting[pick(awaiting.length)]!.seat;
          const options = legal(game, seat);
          const moves = options.filter((c) => c.type === 'moveUnit');
          const cmd = moves.length && pick(10) < 7 ? moves[pick(moves.length)]! : options[pick(options.length)]!;
          const r = attempt(game, seat, cmd, (state) => checkChannels(game, state));
          expect(r.ok).toBe(true);
          if (cmd.type === 'commitNumber' && game.state.game.battle?.call) checkedCommit = true;
        }
        if (numbers === 'players') expect(checkedCommit).toBe(true);
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
