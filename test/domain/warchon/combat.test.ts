import { describe, expect, it } from 'vitest';
import { columnFor, columnName, crtRow, readCrt, readRng } from '../../../src/domain/warchon/combat.ts';
import { DEMO_SPREADS } from '../../../src/domain/warchon/data.ts';
import { attempt, legal, status, submit } from '../../support/play.ts';
import { arranged, events, generate, idOf, lastEvent, pendingKinds, unit } from './helpers.ts';

const erdon = DEMO_SPREADS[0]!;

/** The rulebook's battle: every Azuthkan unit attacks every Celestine unit at Erdon Pass. */
function rulebookBattle() {
  return arranged({
    azuthkan: [
      { type: 'baphite-swarm', at: 1 },
      { type: 'baphite-swarm', at: 1 },
      { type: 'deathknoll-ogres', at: 1 },
      { type: 'goblin-assassins', at: 1 },
    ],
    celestine: [
      { type: 'celestine-paladins', at: 1 },
      { type: 'celestine-war-angels', at: 1 },
      { type: 'celestine-crusaders', at: 1 },
    ],
  });
}

describe("the rulebook's worked examples", () => {
  it('9 AS against 7 DS reads the +2/+3 column', () => {
    expect(columnName(columnFor(9 - 7))).toBe('+2/+3');
    const game = rulebookBattle();
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 3);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ attackTotal: 9, defenseTotal: 7, difference: 2, column: '+2/+3' });
  });

  it('five fingers against two at Erdon Pass gives 3', () => {
    expect(readRng(erdon, 5, 2)).toEqual({ number: 3, event: false });
    const game = rulebookBattle();
    submit(game, 'azuthkan', { type: 'endMovement' });
    submit(game, 'azuthkan', { type: 'commitNumber', number: 5 });
    submit(game, 'celestine', { type: 'commitNumber', number: 2 });
    expect(lastEvent(game, 'NumberGenerated')).toMatchObject({ attackerNumber: 5, defenderNumber: 2, number: 3, event: false, by: 'players' });
  });

  it('a 3 on the +2/+3 column at Erdon Pass is A1D1: each side assigns its own Hit', () => {
    expect(readCrt(erdon, 3, columnFor(2))).toBe('A1D1');
    const game = rulebookBattle();
    submit(game, 'azuthkan', { type: 'endMovement' });
    submit(game, 'azuthkan', { type: 'commitNumber', number: 5 });
    submit(game, 'celestine', { type: 'commitNumber', number: 2 });
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ result: 'A1D1' });
    // Both players assign at once.
    expect(pendingKinds(game).sort()).toEqual(['azuthkan:ALLOCATE_DAMAGE', 'celestine:ALLOCATE_DAMAGE']);
    const angels = idOf(game, 'celestine-war-angels');
    const swarm = idOf(game, 'baphite-swarm');
    submit(game, 'celestine', { type: 'assignHit', unit: angels });
    submit(game, 'azuthkan', { type: 'assignHit', unit: swarm });
    // The War Angels turn to their next line (AS 2, DS 1); the Swarm bites the dust.
    expect(unit(game, angels)).toMatchObject({ hitsTaken: 1, destroyed: false });
    const view = game.module.view(game.state.game, 'celestine') as any;
    expect(view.units.find((u: any) => u.id === angels)).toMatchObject({ as: 2, ds: 1, hits: 1 });
    expect(unit(game, swarm).destroyed).toBe(true);
  });
});

describe('Combat Results Table', () => {
  it('reads the battle differential into the printed columns, -5 and +5 for wider gaps', () => {
    const expected: Record<number, string> = { [-9]: '-5', [-5]: '-5', [-4]: '-4', [-3]: '-3/-2', [-2]: '-3/-2', [-1]: '-1/0/+1', 0: '-1/0/+1', 1: '-1/0/+1', 2: '+2/+3', 3: '+2/+3', 4: '+4', 5: '+5', 12: '+5' };
    for (const [d, col] of Object.entries(expected)) expect(columnName(columnFor(Number(d)))).toBe(col);
  });

  it('reads numbers 4 and 5 on rows 1 and 2 (the tables print rows 1 to 3)', () => {
    expect([1, 2, 3, 4, 5].map(crtRow)).toEqual([1, 2, 3, 1, 2]);
    expect(readCrt(erdon, 4, 0)).toBe('AE');
    expect(readCrt(erdon, 5, 0)).toBe('A3');
  });

  it('completes each RNG table with a fifth row shifted like the others (the printed fifth rows are cut short)', () => {
    expect(erdon.rng[4]).toEqual(['2', '3', '4', '5E', '1']);
    for (const s of DEMO_SPREADS) {
      expect(s.rng).toHaveLength(5);
      for (let r = 1; r < 5; r++) expect(s.rng[r]).toEqual([...s.rng[r - 1]!.slice(1), s.rng[r - 1]![0]]);
    }
  });

  it('AE destroys every attacking unit in the battle', () => {
    // Irondale, -5 column, number 1: AE.
    const game = arranged({
      azuthkan: [{ type: 'goblin-assassins', at: 2 }, { type: 'deathknoll-ogres', at: 7 }],
      celestine: [{ type: 'celestine-paladins', at: 2 }, { type: 'celestine-crusaders', at: 2 }, { type: 'celestine-war-angels', at: 2 }],
    });
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 1);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ difference: -6, result: 'AE' });
    expect(unit(game, idOf(game, 'goblin-assassins')).destroyed).toBe(true);
    expect(unit(game, idOf(game, 'deathknoll-ogres')).destroyed).toBe(false);
  });

  it('DE destroys every defending unit in the battle', () => {
    const game = arranged({
      azuthkan: [{ type: 'deathknoll-ogres', at: 2 }, { type: 'baphite-swarm', at: 2 }, { type: 'baphite-swarm', at: 2 }],
      celestine: [{ type: 'celestine-crusaders', at: 2 }, { type: 'celestine-paladins', at: 1 }],
    });
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 1);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ difference: 6, result: 'DE' });
    expect(unit(game, idOf(game, 'celestine-crusaders')).destroyed).toBe(true);
    expect(unit(game, idOf(game, 'celestine-paladins')).destroyed).toBe(false);
  });

  it('Eg: no damage, and no unit there may leave next turn', () => {
    const game = arranged({
      azuthkan: [{ type: 'baphite-swarm', at: 1 }, { type: 'goblin-assassins', at: 7 }],
      celestine: [{ type: 'celestine-crusaders', at: 1 }, { type: 'celestine-paladins', at: 3 }],
    });
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 3, false);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ difference: 0, result: 'Eg' });
    expect(events(game, 'HitAssigned')).toHaveLength(0);
    expect(status(game)).toMatchObject({ round: 2, phase: 'Celestine Movement Round' });
    const crusaders = idOf(game, 'celestine-crusaders');
    const refused = attempt(game, 'celestine', { type: 'moveUnit', unit: crusaders, to: 2 });
    expect(refused).toMatchObject({ ok: false });
    expect((refused as any).reason).toMatch(/Engaged/);
    expect(legal(game, 'celestine').some((c) => c.type === 'moveUnit' && c.unit === crusaders)).toBe(false);
    // Reinforcements may still move in.
    submit(game, 'celestine', { type: 'moveUnit', unit: idOf(game, 'celestine-paladins'), to: 2 });
  });

  it('Eg: the lock lasts until the battle is fought again; after that units may leave', () => {
    const game = arranged({
      azuthkan: [{ type: 'baphite-swarm', at: 1 }, { type: 'goblin-assassins', at: 7 }],
      celestine: [{ type: 'celestine-crusaders', at: 1 }, { type: 'celestine-paladins', at: 3 }],
    });
    const swarm = idOf(game, 'baphite-swarm');
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 3, false);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ result: 'Eg' });
    // Turn 2: they duke it out again (Celestine attacks, AS 2 against DS 2): So this time.
    submit(game, 'celestine', { type: 'endMovement' });
    generate(game, 2, false);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ spread: 1, result: 'So' });
    // Turn 3: the Swarm is free to leave Erdon Pass.
    expect(status(game)).toMatchObject({ round: 3, phase: 'Azuthkan Movement Round' });
    submit(game, 'azuthkan', { type: 'moveUnit', unit: swarm, to: 2 });
    expect(unit(game, swarm).spread).toBe(2);
  });

  it('So: no casualties, and next turn units may leave freely', () => {
    const game = arranged({
      azuthkan: [{ type: 'baphite-swarm', at: 1 }, { type: 'goblin-assassins', at: 7 }],
      celestine: [{ type: 'celestine-crusaders', at: 1 }, { type: 'celestine-paladins', at: 3 }],
    });
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 2, false);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ result: 'So' });
    expect(events(game, 'HitAssigned')).toHaveLength(0);
    submit(game, 'celestine', { type: 'moveUnit', unit: idOf(game, 'celestine-crusaders'), to: 2 });
  });

  it('a multi-Hit unit turns to its next stat line; no unit takes more Hits than it has', () => {
    // Kier-Zhadd, +2/+3 column, number 3: A1D1. The Ogres (2 Hits) take one and show AS 3, DS 3.
    const game = arranged({
      azuthkan: [{ type: 'deathknoll-ogres', at: 7 }],
      celestine: [{ type: 'celestine-crusaders', at: 7 }, { type: 'celestine-paladins', at: 3 }],
    });
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 3);
    // Ogres AS 4 +1 (Size 3 in Kier-Zhadd) = 5 against DS 2: +2/+3 column, A1D1.
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ attackTotal: 5, defenseTotal: 2, result: 'A1D1' });
    const ogres = idOf(game, 'deathknoll-ogres');
    // A single candidate: the Hit is assigned automatically.
    expect(unit(game, ogres)).toMatchObject({ hitsTaken: 1, destroyed: false });
    const view = game.module.view(game.state.game, 'azuthkan') as any;
    expect(view.units.find((u: any) => u.id === ogres)).toMatchObject({ as: 3, ds: 3, hits: 1 });
    expect(unit(game, idOf(game, 'celestine-crusaders')).destroyed).toBe(true);
  });

  it('Hits beyond what the battle army has destroy it all, without asking', () => {
    // Mount Tzask, -5 column, number 3: A3 against a Baphite Swarm (1 Hit) and Goblin Assassins (1 Hit).
    const game = arranged({
      azuthkan: [{ type: 'baphite-swarm', at: 5 }, { type: 'goblin-assassins', at: 5 }, { type: 'deathknoll-ogres', at: 7 }],
      celestine: [{ type: 'celestine-paladins', at: 5 }, { type: 'celestine-war-angels', at: 5 }, { type: 'celestine-crusaders', at: 5 }, { type: 'celestine-paladins', at: 5 }],
    });
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 3, false);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ attackTotal: 3, defenseTotal: 10, result: 'A3' });
    expect(unit(game, idOf(game, 'baphite-swarm')).destroyed).toBe(true);
    expect(unit(game, idOf(game, 'goblin-assassins')).destroyed).toBe(true);
    expect(pendingKinds(game)).not.toContain('azuthkan:ALLOCATE_DAMAGE');
  });
});

describe('battles', () => {
  it('happen after all movement, in numerical order of the spread', () => {
    const game = arranged({
      azuthkan: [{ type: 'baphite-swarm', at: 5 }, { type: 'baphite-swarm', at: 6 }],
      celestine: [{ type: 'celestine-paladins', at: 3 }, { type: 'celestine-crusaders', at: 2 }],
    });
    const swarm1 = idOf(game, 'baphite-swarm', 1);
    const swarm2 = idOf(game, 'baphite-swarm', 2);
    submit(game, 'azuthkan', { type: 'moveUnit', unit: swarm2, to: 3 }); // 6 -> 3 by path
    expect(events(game, 'BattleBegan')).toHaveLength(0);
    submit(game, 'azuthkan', { type: 'moveUnit', unit: swarm1, to: 2 }); // 5 -> 2 by path
    // Both units are shifted: ending the Movement Round is the only choice left, taken at once.
    expect(events(game, 'BattleBegan').map((e) => e.spread)).toEqual([2]);
    generate(game, 2, false);
    expect(events(game, 'BattleBegan').map((e) => e.spread)).toEqual([2, 3]);
  });

  it("reads the attacker's number across the top and the defender's down the side", () => {
    // The demo tables are symmetric (each row shifts the one above), so a lopsided table pins the orientation.
    const rows = ['1', '2', '3', '4', '5'].map((d) => [d, d, d, d, d]);
    const spreads = DEMO_SPREADS.map((s) => (s.number === 2 ? { ...s, rng: rows } : s));
    const game = arranged({
      options: { spreads },
      azuthkan: [{ type: 'baphite-swarm', at: 2 }],
      celestine: [{ type: 'celestine-crusaders', at: 2 }, { type: 'celestine-paladins', at: 3 }],
    });
    submit(game, 'azuthkan', { type: 'endMovement' });
    submit(game, 'azuthkan', { type: 'commitNumber', number: 5 });
    submit(game, 'celestine', { type: 'commitNumber', number: 2 });
    expect(lastEvent(game, 'NumberGenerated')).toMatchObject({ attackerNumber: 5, defenderNumber: 2, number: 2 });
  });

  it('waits for both secret numbers at once and hides the first from the other seat and spectators', () => {
    const committing = (number: number) => {
      const g = rulebookBattle();
      submit(g, 'azuthkan', { type: 'endMovement' });
      expect(pendingKinds(g).sort()).toEqual(['azuthkan:COMMIT_NUMBER', 'celestine:COMMIT_NUMBER']);
      submit(g, 'celestine', { type: 'commitNumber', number });
      const seenBy = (viewer: string | null) => ({
        view: g.module.view(g.state.game, viewer),
        events: g.log.map((r) => g.module.redact!(r.event, viewer, g.state.game)),
        awaiting: status(g).awaiting,
      });
      return { game: g, seenBy };
    };
    const { game, seenBy } = committing(4);
    const committed = lastEvent(game, 'NumberCommitted');
    // Celestine's own view and log show its number, so another number shows differently to it...
    expect(seenBy('celestine')).not.toEqual(committing(2).seenBy('celestine'));
    for (const viewer of ['azuthkan', null]) {
      expect(game.module.redact!(committed, viewer, game.state.game)).toMatchObject({ number: null });
      expect((game.module.view(game.state.game, viewer) as any).battle.numberCall).toMatchObject({ committed: ['celestine'], yourNumber: null });
      // ...but not to the other seat or a spectator, in any field of the view, the log or the prompts.
      expect(seenBy(viewer)).toEqual(committing(2).seenBy(viewer));
    }
    expect(game.module.redact!(committed, 'celestine', game.state.game)).toMatchObject({ number: 4 });
    expect((game.module.view(game.state.game, 'celestine') as any).battle.numberCall.yourNumber).toBe(4);
    submit(game, 'azuthkan', { type: 'commitNumber', number: 1 });
    expect(game.module.redact!(committed, 'azuthkan', game.state.game)).toMatchObject({ number: 4 });
  });

  it('with numbers: "server", the server draws both numbers and nobody is asked', () => {
    const game = arranged({
      options: { numbers: 'server' },
      azuthkan: [{ type: 'baphite-swarm', at: 2 }],
      celestine: [{ type: 'celestine-crusaders', at: 2 }, { type: 'celestine-paladins', at: 3 }],
    });
    submit(game, 'azuthkan', { type: 'endMovement' });
    const generated = events(game, 'NumberGenerated');
    expect(generated.length).toBeGreaterThan(0);
    expect(events(game, 'NumberCalled')).toHaveLength(0);
    for (const g of generated) {
      expect(g.by).toBe('server');
      expect(readRng(DEMO_SPREADS[1]!, g.attackerNumber, g.defenderNumber).number).toBe(g.number);
    }
    expect(game.log.find((r) => r.event.type === 'NumberGenerated')).toBeDefined();
  });
});
