import { describe, expect, it } from 'vitest';
import { warchon } from '../../../src/domain/warchon/index.ts';
import { attempt, legal, newGame, status, submit } from '../../support/play.ts';
import { DEMO_ROSTER } from '../../../src/domain/warchon/data.ts';
import { arranged, events, generate, idOf, lastEvent, SEATS, traitType, unit } from './helpers.ts';

describe('Setup', () => {
  it('Azuthkan places first in spreads 5-7, then Celestine in 1-3', () => {
    const game = newGame(warchon, {}, SEATS);
    expect(status(game)).toMatchObject({ stage: 'SETUP', awaiting: [{ seat: 'azuthkan', kind: 'SETUP' }] });
    expect(legal(game, 'celestine')).toEqual([]);
    expect(new Set(legal(game, 'azuthkan').map((c) => c.spread))).toEqual(new Set([5, 6, 7]));
    expect(attempt(game, 'azuthkan', { type: 'placeUnit', unit: 'baphite-swarm-1', spread: 3 })).toMatchObject({ ok: false });
    for (const [u, sp] of [['baphite-swarm-1', 5], ['baphite-swarm-2', 6], ['deathknoll-ogres-1', 7], ['goblin-assassins-1', 7]] as const) {
      submit(game, 'azuthkan', { type: 'placeUnit', unit: u, spread: sp });
    }
    expect(status(game).awaiting).toEqual([expect.objectContaining({ seat: 'celestine', kind: 'SETUP' })]);
    expect(new Set(legal(game, 'celestine').map((c) => c.spread))).toEqual(new Set([1, 2, 3]));
    expect(attempt(game, 'celestine', { type: 'placeUnit', unit: 'celestine-paladins-1', spread: 5 })).toMatchObject({ ok: false });
    for (const [u, sp] of [['celestine-paladins-1', 1], ['celestine-war-angels-1', 1], ['celestine-crusaders-1', 2]] as const) {
      submit(game, 'celestine', { type: 'placeUnit', unit: u, spread: sp });
    }
    // The game begins with the Azuthkan player's Movement Round.
    expect(status(game)).toMatchObject({ stage: 'ACTIVE', round: 1, phase: 'Azuthkan Movement Round', awaiting: [{ seat: 'azuthkan', kind: 'MOVE' }] });
  });

  it('keeps setup within Capacity, aerial and non-aerial apart', () => {
    const game = newGame(warchon, {}, SEATS);
    for (const [u, sp] of [['baphite-swarm-1', 5], ['baphite-swarm-2', 5], ['deathknoll-ogres-1', 5], ['goblin-assassins-1', 6]] as const) {
      submit(game, 'azuthkan', { type: 'placeUnit', unit: u, spread: sp });
    }
    // Erdon Pass: Capacity 4. Paladins (2) and Crusaders (2) fill it; the aerial War Angels still fit.
    submit(game, 'celestine', { type: 'placeUnit', unit: 'celestine-paladins-1', spread: 1 });
    submit(game, 'celestine', { type: 'placeUnit', unit: 'celestine-crusaders-1', spread: 1 });
    const before = JSON.stringify(game.state.game);
    const bad = newGame(warchon, { roster: [
      { key: 'giant', name: 'Giant', army: 'celestine', count: 1, lines: [{ size: 5, movement: 1, as: 1, ds: 1 }] },
      { key: 'imp', name: 'Imp', army: 'azuthkan', count: 1, lines: [{ size: 1, movement: 1, as: 1, ds: 1 }] },
    ] }, SEATS);
    submit(bad, 'azuthkan', { type: 'placeUnit', unit: 'imp-1', spread: 5 });
    const r = attempt(bad, 'celestine', { type: 'placeUnit', unit: 'giant-1', spread: 1 });
    expect(r).toMatchObject({ ok: false });
    expect((r as any).reason).toMatch(/Capacity/);
    expect(JSON.stringify(game.state.game)).toBe(before);
    submit(game, 'celestine', { type: 'placeUnit', unit: 'celestine-war-angels-1', spread: 1 });
    expect(status(game).stage).toBe('ACTIVE');
  });

  it('shows the opponent where units are, never which, until a unit has fought', () => {
    const placing = (unit: string) => {
      const game = newGame(warchon, {}, SEATS);
      submit(game, 'azuthkan', { type: 'placeUnit', unit, spread: 7 });
      const seenBy = (viewer: string | null) => ({
        view: warchon.view(game.state.game, viewer) as any,
        events: game.log.map((r) => warchon.redact!(r.event as any, viewer, game.state.game)),
      });
      return { placed: lastEvent(game, 'UnitPlaced'), seenBy };
    };
    const ogres = placing('deathknoll-ogres-1');
    const goblins = placing('goblin-assassins-1');
    expect(ogres.placed.marker).toBe('azuthkan-1');
    // The owner sees which unit it is: its key, type and name (all matching /deathknoll/i), its stats...
    const own = ogres.seenBy('azuthkan');
    expect(own.view.units[0]).toMatchObject({ known: true, key: 'deathknoll-ogres-1', type: 'deathknoll-ogres', name: 'Deathknoll Ogres', maxHits: 2 });
    expect(own.events.at(-1)).toMatchObject({ unit: 'deathknoll-ogres-1', unitType: 'deathknoll-ogres' });
    expect(own).not.toEqual(goblins.seenBy('azuthkan'));
    for (const viewer of ['celestine', null]) {
      // ...the opponent and spectators only the marker and the spread: nothing of it in any case,
      const seen = ogres.seenBy(viewer);
      expect(seen.events.at(-1)).toMatchObject({ marker: 'azuthkan-1', spread: 7, unit: null, unitType: null });
      expect(seen.view.units[0]).toMatchObject({ id: 'azuthkan-1', spread: 7, known: false, key: null, type: null, name: null, as: null, ds: null, hits: null, maxHits: null });
      expect(JSON.stringify(seen)).not.toMatch(/deathknoll/i);
      // and exactly what they would see had another unit (and so other units still to place) been placed there.
      expect(seen).toEqual(goblins.seenBy(viewer));
    }
  });

  it('reveals a unit once it has fought, in the view and in its setup event', () => {
    const game = arranged({
      azuthkan: [{ type: 'baphite-swarm', at: 1 }, { type: 'goblin-assassins', at: 7 }],
      celestine: [{ type: 'celestine-crusaders', at: 1 }, { type: 'celestine-paladins', at: 3 }],
    });
    const goblins = idOf(game, 'goblin-assassins');
    const swarm = idOf(game, 'baphite-swarm');
    submit(game, 'azuthkan', { type: 'endMovement' });
    const v = warchon.view(game.state.game, 'celestine') as any;
    expect(v.units.find((u: any) => u.id === swarm)).toMatchObject({ known: true, name: 'Baphite Swarm' });
    expect(v.units.find((u: any) => u.id === goblins)).toMatchObject({ known: false, name: null });
    const began = lastEvent(game, 'BattleBegan');
    expect(began.units.map((u: any) => u.id).sort()).toEqual([swarm, idOf(game, 'celestine-crusaders')].sort());
    const fake = { type: 'UnitPlaced', army: 'azuthkan', marker: swarm, spread: 1, unit: 'baphite-swarm-1', unitType: 'baphite-swarm' } as const;
    expect(warchon.redact!(fake, 'celestine', game.state.game)).toMatchObject({ unit: 'baphite-swarm-1' });
  });
});

describe('Movement Round', () => {
  const field = () =>
    arranged({
      azuthkan: [{ type: 'baphite-swarm', at: 5 }, { type: 'deathknoll-ogres', at: 7 }, { type: 'goblin-assassins', at: 6 }],
      celestine: [{ type: 'celestine-paladins', at: 3 }, { type: 'celestine-war-angels', at: 1 }, { type: 'celestine-crusaders', at: 1 }],
    });

  it('moves a unit one spread per Movement, in order or along a path, several spreads at once or in parts', () => {
    const at = field();
    const ogres = idOf(at, 'deathknoll-ogres');
    // Deathknoll Ogres (Movement 2) from Kier-Zhadd: 7 -> 4 -> 1 in one move; 2 is three spreads away.
    expect((attempt(at, 'azuthkan', { type: 'moveUnit', unit: ogres, to: 2 }) as any).reason).toMatch(/has 2 Movement; .* is 3 spreads away/);
    submit(at, 'azuthkan', { type: 'moveUnit', unit: ogres, to: 1 });
    expect(unit(at, ogres)).toMatchObject({ spread: 1, movesLeft: 0 });
    expect(lastEvent(at, 'UnitMoved')).toMatchObject({ from: 7, to: 1, moves: 2 });
    const game = field();
    const swarm = idOf(game, 'baphite-swarm');
    submit(game, 'azuthkan', { type: 'moveUnit', unit: swarm, to: 4 });
    submit(game, 'azuthkan', { type: 'moveUnit', unit: swarm, to: 7 }); // path Akibatu - Kier-Zhadd
    expect(unit(game, swarm)).toMatchObject({ spread: 7, movesLeft: 1 });
    submit(game, 'azuthkan', { type: 'moveUnit', unit: swarm, to: 6 });
    expect(unit(game, swarm)).toMatchObject({ spread: 6, movesLeft: 0 });
    const r = attempt(game, 'azuthkan', { type: 'moveUnit', unit: swarm, to: 5 });
    expect(r).toMatchObject({ ok: false });
    expect((r as any).reason).toMatch(/no Movement left/);
  });

  it('never tells the opponent whether a unit that moved had Movement left', () => {
    // The Ogres (Movement 2) use all theirs; a Swarm (Movement 3) stops short after the same two spreads.
    const seen = (type: string) => {
      const game = arranged({ azuthkan: [{ type, at: 7 }], celestine: [{ type: 'celestine-paladins', at: 1 }, { type: 'celestine-crusaders', at: 2 }] });
      const id = idOf(game, type);
      submit(game, 'azuthkan', { type: 'moveUnit', unit: id, to: 6 });
      submit(game, 'azuthkan', { type: 'moveUnit', unit: id, to: 5 });
      return {
        events: game.log.map((r) => warchon.redact!(r.event as any, 'celestine', game.state.game)).filter((e) => e.type !== 'UnitPlaced'),
        unit: (warchon.view(game.state.game, 'celestine') as any).units.find((u: any) => u.id === id),
        awaiting: status(game).awaiting,
      };
    };
    const spent = seen('deathknoll-ogres');
    const short = seen('baphite-swarm');
    expect(spent).toEqual(short);
    // Not shifted yet, and the Movement Round is not ended by itself: its owner ends it.
    expect(spent.unit).toMatchObject({ shifted: false, known: false });
    expect(spent.awaiting).toEqual([expect.objectContaining({ seat: 'azuthkan', kind: 'MOVE' })]);
  });

  it('stops a unit the instant it enters a spread with an enemy', () => {
    const game = field();
    const goblins = idOf(game, 'goblin-assassins');
    submit(game, 'azuthkan', { type: 'moveUnit', unit: goblins, to: 3 }); // path Xetti Bishum - Dracosroar
    expect(lastEvent(game, 'UnitMoved')).toMatchObject({ stopped: true });
    expect(unit(game, goblins)).toMatchObject({ spread: 3, movesLeft: 0, shifted: true });
    expect(attempt(game, 'azuthkan', { type: 'moveUnit', unit: goblins, to: 2 })).toMatchObject({ ok: false });
  });

  it('shifts a unit once another unit moves: it cannot move again this turn', () => {
    const game = field();
    const swarm = idOf(game, 'baphite-swarm');
    submit(game, 'azuthkan', { type: 'moveUnit', unit: swarm, to: 4 });
    submit(game, 'azuthkan', { type: 'moveUnit', unit: idOf(game, 'deathknoll-ogres'), to: 6 });
    expect(unit(game, swarm).shifted).toBe(true);
    expect((attempt(game, 'azuthkan', { type: 'moveUnit', unit: swarm, to: 7 }) as any).reason).toMatch(/shifted/);
  });

  it('lets Aerial units fly straight to any spread within their Movement, ignoring units in between', () => {
    const game = field();
    submit(game, 'azuthkan', { type: 'endMovement' });
    // Celestine's turn: War Angels (Movement 4) fly from Erdon Pass over Dracosroar (enemy-free here) to Mount Tzask.
    generate0(game);
    const angels = idOf(game, 'celestine-war-angels');
    expect(status(game).phase).toBe('Celestine Movement Round');
    expect(attempt(game, 'celestine', { type: 'moveUnit', unit: angels, to: 7 })).toMatchObject({ ok: true }); // 1 -> 4 -> 7: 2 spreads
    expect(unit(game, angels)).toMatchObject({ spread: 7, shifted: true });
    // One event with where it went, as a walk to the same spread would be.
    expect(events(game, 'UnitMoved').filter((e) => e.unit === angels)).toEqual([expect.objectContaining({ from: 1, to: 7, stopped: true })]);
  });

  it('a flight and a walk along the same spreads look the same to the opponent and spectators', () => {
    // The same marker is the War Angels (flying 1 -> 3 in one move) or the Paladins (walking 1 -> 2 -> 3).
    const seen = (type: string, moves: number[]) => {
      const game = arranged({ active: 'celestine', azuthkan: [{ type: 'goblin-assassins', at: 7 }], celestine: [{ type, at: 1 }, { type: 'celestine-crusaders', at: 1 }] });
      const from = game.log.length;
      const id = idOf(game, type);
      for (const to of moves) submit(game, 'celestine', { type: 'moveUnit', unit: id, to });
      submit(game, 'celestine', { type: 'moveUnit', unit: idOf(game, 'celestine-crusaders'), to: 2 });
      return ['azuthkan', null].map((viewer) => ({
        events: game.log.slice(from).map((r) => warchon.redact!(r.event as any, viewer, game.state.game)),
        view: (warchon.view(game.state.game, viewer) as any).units,
        awaiting: status(game).awaiting,
      }));
    };
    // Issue 21.3: one event with the destination, in one command, for the flight and the walk alike.
    const flight = seen('celestine-war-angels', [3]);
    expect(flight[0]!.events.filter((e: any) => e.type === 'UnitMoved').map((e: any) => [e.from, e.to, e.moves])).toEqual([[1, 3, null], [1, 2, null]]);
    expect(flight).toEqual(seen('celestine-paladins', [3]));
  });

  it('refuses an Aerial flight beyond its Movement', () => {
    // Griffins (test roster): Aerial, Movement 2. From Erdon Pass, Xetti Bishum is 3 spreads away by any route.
    const roster = [...DEMO_ROSTER, traitType('griffins', 'celestine', ['Aerial'], { size: 2, movement: 2, as: 2, ds: 2 })];
    const game = arranged({
      active: 'celestine',
      options: { roster },
      azuthkan: [{ type: 'goblin-assassins', at: 7 }],
      celestine: [{ type: 'griffins', at: 1 }, { type: 'celestine-paladins', at: 1 }],
    });
    const griffins = idOf(game, 'griffins');
    expect(legal(game, 'celestine').filter((c) => c.type === 'moveUnit' && c.unit === griffins).map((c) => c.to)).toEqual([2, 3, 4, 5, 7]);
    const r = attempt(game, 'celestine', { type: 'moveUnit', unit: griffins, to: 6 });
    expect(r).toMatchObject({ ok: false });
    expect((r as any).reason).toMatch(/has 2 Movement; Xetti Bishum is 3 spreads away/);
  });

  it('an Aerial flight bypasses the spreads in between: enemies there do not stop it', () => {
    // Goblins hold Akibatu, between Erdon Pass and Kier-Zhadd; a walking unit would stop there.
    const game = arranged({
      active: 'celestine',
      azuthkan: [{ type: 'goblin-assassins', at: 4 }, { type: 'baphite-swarm', at: 6 }],
      celestine: [{ type: 'celestine-war-angels', at: 1 }, { type: 'celestine-paladins', at: 1 }],
    });
    const angels = idOf(game, 'celestine-war-angels');
    submit(game, 'celestine', { type: 'moveUnit', unit: angels, to: 7 });
    // 1 -> 4 -> 7 passes over the Goblins: no stop, one event.
    expect(events(game, 'UnitMoved').slice(-1)).toEqual([expect.objectContaining({ from: 1, to: 7, stopped: false })]);
    expect(unit(game, angels).spread).toBe(7);
    const paladins = idOf(game, 'celestine-paladins');
    submit(game, 'celestine', { type: 'moveUnit', unit: paladins, to: 4 });
    expect(lastEvent(game, 'UnitMoved')).toMatchObject({ to: 4, stopped: true });
    expect(attempt(game, 'celestine', { type: 'moveUnit', unit: paladins, to: 7 })).toMatchObject({ ok: false });
  });

  it('keeps each army within Capacity by Size, aerial and non-aerial apart', () => {
    const game = arranged({
      active: 'celestine',
      azuthkan: [{ type: 'goblin-assassins', at: 7 }],
      celestine: [
        { type: 'celestine-paladins', at: 1 },
        { type: 'celestine-crusaders', at: 1 },
        { type: 'celestine-paladins', at: 2 },
        { type: 'celestine-war-angels', at: 2 },
      ],
    });
    const third = idOf(game, 'celestine-paladins', 2);
    const r = attempt(game, 'celestine', { type: 'moveUnit', unit: third, to: 1 });
    expect(r).toMatchObject({ ok: false });
    expect((r as any).reason).toMatch(/Capacity/);
    submit(game, 'celestine', { type: 'moveUnit', unit: idOf(game, 'celestine-war-angels'), to: 1 });
    expect(unit(game, idOf(game, 'celestine-war-angels')).spread).toBe(1);
  });

  it('counts Capacity per army: the enemy\'s units in a spread leave yours untouched', () => {
    // Erdon Pass (Capacity 4) holds Azuthkan Size 4; Celestine may still bring in Size 4 of its own.
    const game = arranged({
      active: 'celestine',
      azuthkan: [{ type: 'deathknoll-ogres', at: 1 }, { type: 'goblin-assassins', at: 1 }],
      celestine: [{ type: 'celestine-paladins', at: 2 }, { type: 'celestine-crusaders', at: 2 }, { type: 'celestine-paladins', at: 2 }],
    });
    submit(game, 'celestine', { type: 'moveUnit', unit: idOf(game, 'celestine-paladins', 1), to: 1 });
    submit(game, 'celestine', { type: 'moveUnit', unit: idOf(game, 'celestine-crusaders'), to: 1 });
    expect((attempt(game, 'celestine', { type: 'moveUnit', unit: idOf(game, 'celestine-paladins', 2), to: 1 }) as any).reason).toMatch(/Capacity/);
  });

  it('Erdon Pass: only one unit per army may move out of battle there each turn', () => {
    const game = arranged({
      active: 'celestine',
      azuthkan: [{ type: 'baphite-swarm', at: 1 }, { type: 'goblin-assassins', at: 7 }],
      celestine: [{ type: 'celestine-paladins', at: 1 }, { type: 'celestine-crusaders', at: 1 }, { type: 'celestine-paladins', at: 3 }],
    });
    submit(game, 'celestine', { type: 'moveUnit', unit: idOf(game, 'celestine-paladins', 1), to: 2 });
    const r = attempt(game, 'celestine', { type: 'moveUnit', unit: idOf(game, 'celestine-crusaders'), to: 2 });
    expect(r).toMatchObject({ ok: false });
    expect((r as any).reason).toMatch(/Only 1 unit per army may move out of battle at Erdon Pass/);
    // Elsewhere there is no such limit (Irondale: two units leave the battle).
    const other = arranged({
      active: 'celestine',
      azuthkan: [{ type: 'baphite-swarm', at: 2 }],
      celestine: [{ type: 'celestine-paladins', at: 2 }, { type: 'celestine-crusaders', at: 2 }],
    });
    submit(other, 'celestine', { type: 'moveUnit', unit: idOf(other, 'celestine-paladins'), to: 3 });
    submit(other, 'celestine', { type: 'moveUnit', unit: idOf(other, 'celestine-crusaders'), to: 3 });
    // Out of battle only: with no enemy at Erdon Pass, any number of units may leave it.
    const quiet = arranged({
      active: 'celestine',
      azuthkan: [{ type: 'baphite-swarm', at: 7 }],
      celestine: [{ type: 'celestine-paladins', at: 1 }, { type: 'celestine-crusaders', at: 1 }],
    });
    submit(quiet, 'celestine', { type: 'moveUnit', unit: idOf(quiet, 'celestine-paladins'), to: 2 });
    submit(quiet, 'celestine', { type: 'moveUnit', unit: idOf(quiet, 'celestine-crusaders'), to: 2 });
    expect(unit(quiet, idOf(quiet, 'celestine-crusaders')).spread).toBe(2);
  });

  it('Erdon Pass: the limit is one unit per army each turn, so next turn another may leave', () => {
    const game = arranged({
      active: 'celestine',
      azuthkan: [{ type: 'deathknoll-ogres', at: 1 }, { type: 'goblin-assassins', at: 7 }],
      celestine: [{ type: 'celestine-paladins', at: 1 }, { type: 'celestine-crusaders', at: 1 }, { type: 'celestine-war-angels', at: 1 }],
    });
    const crusaders = idOf(game, 'celestine-crusaders');
    submit(game, 'celestine', { type: 'moveUnit', unit: idOf(game, 'celestine-paladins'), to: 2 });
    expect(attempt(game, 'celestine', { type: 'moveUnit', unit: crusaders, to: 2 })).toMatchObject({ ok: false });
    submit(game, 'celestine', { type: 'endMovement' });
    generate(game, 2, false); // AS 5 against DS 4: So
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ spread: 1, result: 'So' });
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 2, false); // AS 4 against DS 4: So
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ spread: 1, result: 'So' });
    expect(status(game).phase).toBe('Celestine Movement Round');
    submit(game, 'celestine', { type: 'moveUnit', unit: crusaders, to: 2 });
    expect(unit(game, crusaders).spread).toBe(2);
    expect((attempt(game, 'celestine', { type: 'moveUnit', unit: idOf(game, 'celestine-war-angels'), to: 2 }) as any).reason).toMatch(/Only 1 unit/);
  });

  it('Engaged units cannot leave', () => {
    const game = arranged({
      active: 'celestine',
      turn: 2,
      engaged: [{ spread: 2, turn: 1 }],
      azuthkan: [{ type: 'baphite-swarm', at: 2 }],
      celestine: [{ type: 'celestine-paladins', at: 2 }, { type: 'celestine-war-angels', at: 2 }, { type: 'celestine-crusaders', at: 3 }],
    });
    for (const u of ['celestine-paladins', 'celestine-war-angels']) {
      expect((attempt(game, 'celestine', { type: 'moveUnit', unit: idOf(game, u), to: 3 }) as any).reason).toMatch(/Engaged/);
    }
    expect(legal(game, 'celestine').filter((c) => c.type === 'moveUnit').every((c) => c.unit === idOf(game, 'celestine-crusaders'))).toBe(true);
    // Reinforcements may move in; then, with nothing else to do, the Movement Round ends by itself (one legal choice).
    submit(game, 'celestine', { type: 'moveUnit', unit: idOf(game, 'celestine-crusaders'), to: 2 });
    expect(lastEvent(game, 'MovementEnded')).toMatchObject({ army: 'celestine' });
    expect(unit(game, idOf(game, 'celestine-paladins')).spread).toBe(2);
  });
});

/** Ends Azuthkan's battles if any (none in `field`). */
function generate0(_game: unknown): void {}
