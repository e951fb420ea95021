import { describe, expect, it } from 'vitest';
import { sizeIn } from '../../../src/domain/warchon/battlefield.ts';
import { DEMO_ROSTER } from '../../../src/domain/warchon/data.ts';
import { warchon } from '../../../src/domain/warchon/index.ts';
import { attempt, legal, status, submit } from '../../support/play.ts';
import { arranged, events, generate, idOf, lastEvent, pendingKinds, traitType, unit, type Arrangement } from './helpers.ts';

/** Battle at `spread`: end Azuthkan's movement, draw the spread's E number, then the event's number. */
function toEvent(a: Arrangement, eNumber: number, eventNumber: number) {
  const game = arranged(a);
  submit(game, 'azuthkan', { type: 'endMovement' });
  generate(game, eNumber, true);
  expect(lastEvent(game, 'RandomEventTriggered')).toMatchObject({ number: eNumber });
  generate(game, eventNumber);
  return game;
}

const reserves = { azuthkan: [{ type: 'deathknoll-ogres', at: 7 }], celestine: [{ type: 'celestine-paladins', at: 3 }] };

describe('Erdon Pass Events Table (a 5 the first time in a turn)', () => {
  const erdon = (more: Partial<Arrangement> = {}): Arrangement => ({
    azuthkan: [{ type: 'baphite-swarm', at: 1 }, { type: 'goblin-assassins', at: 1 }, ...reserves.azuthkan],
    celestine: [{ type: 'celestine-paladins', at: 1 }, { type: 'celestine-crusaders', at: 1 }, ...reserves.celestine],
    ...more,
  });

  it('1 Inspired Charge: +2 AS to every attacking unit, only with a Tactics unit among them', () => {
    const plain = toEvent(erdon(), 5, 1);
    expect(lastEvent(plain, 'RandomEventDrawn')).toMatchObject({ name: 'Inspired Charge' });
    generate(plain, 1);
    expect(lastEvent(plain, 'CombatResolved')).toMatchObject({ attackTotal: 3 });

    const roster = [...DEMO_ROSTER, traitType('war-chief', 'azuthkan', ['Tactics'], { size: 1, movement: 2, as: 1, ds: 1 })];
    const led = toEvent({ ...erdon(), options: { roster }, azuthkan: [{ type: 'war-chief', at: 1 }, { type: 'goblin-assassins', at: 1 }, ...reserves.azuthkan] }, 5, 1);
    generate(led, 1);
    expect(lastEvent(led, 'CombatResolved')).toMatchObject({ attackTotal: 1 + 2 + 1 + 2 });
  });

  it('2 Fortified Defense: +2 DS to every defending unit; no second event at Erdon Pass this turn', () => {
    const game = toEvent(erdon(), 5, 2);
    expect(lastEvent(game, 'RandomEventDrawn')).toMatchObject({ name: 'Fortified Defense' });
    // The next 5 is only a number now: "ignoring all subsequent chances for random events this turn".
    generate(game, 5, true);
    expect(events(game, 'RandomEventTriggered')).toHaveLength(1);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ defenseTotal: 3 + 2 + 4, number: 5, row: 2 });
  });

  it('3 Deadly Confrontation: both armies assign 1 Hit at once, then the battle goes on', () => {
    const game = toEvent(erdon(), 5, 3);
    expect(pendingKinds(game).sort()).toEqual(['azuthkan:ALLOCATE_DAMAGE', 'celestine:ALLOCATE_DAMAGE']);
    submit(game, 'azuthkan', { type: 'assignHit', unit: idOf(game, 'goblin-assassins') });
    submit(game, 'celestine', { type: 'assignHit', unit: idOf(game, 'celestine-crusaders') });
    expect(unit(game, idOf(game, 'goblin-assassins')).destroyed).toBe(true);
    expect(unit(game, idOf(game, 'celestine-crusaders')).destroyed).toBe(true);
    expect(pendingKinds(game).sort()).toEqual(['azuthkan:COMMIT_NUMBER', 'celestine:COMMIT_NUMBER']);
    generate(game, 1);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ attackTotal: 2, defenseTotal: 3 });
  });

  it('4 Surprise Reserve: the Controlling army brings a unit within its Movement, outside Capacity, and it retreats after the turn', () => {
    const game = toEvent(
      erdon({
        celestine: [
          { type: 'celestine-paladins', at: 1 },
          { type: 'celestine-crusaders', at: 1 },
          { type: 'celestine-paladins', at: 3 },
          { type: 'celestine-war-angels', at: 6 },
        ],
      }),
      5,
      4,
    );
    const second = idOf(game, 'celestine-paladins', 2);
    const angels = idOf(game, 'celestine-war-angels');
    // The defender controls Erdon Pass. Paladins at Dracosroar are 2 away (Movement 2); the War Angels at Xetti Bishum 3 away (Movement 4).
    expect(legal(game, 'celestine').sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      { type: 'chooseUnit', unit: second },
      { type: 'chooseUnit', unit: angels },
      { type: 'passChoice' },
    ].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))));
    submit(game, 'celestine', { type: 'chooseUnit', unit: second });
    expect(lastEvent(game, 'ReserveJoined')).toMatchObject({ spread: 1, from: 3, unit: { id: second, name: 'Celestine Paladins' } });
    expect(unit(game, second)).toMatchObject({ spread: 1, reserve: true, revealed: true });
    generate(game, 1);
    // Erdon Pass holds Size 4 of Celestine non-aerial units already; the reserve does not count.
    expect(sizeIn(game.state.game, 1, 'celestine', false)).toBe(4);
    expect(events(game, 'CapacityExceeded')).toHaveLength(0);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ defenseTotal: 3 + 2 + 3 });
    // End of the turn: it must retreat one spread (to Irondale or Akibatu, free of enemies).
    expect(status(game).awaiting).toEqual([expect.objectContaining({ seat: 'celestine', kind: 'RETREAT' })]);
    expect(legal(game, 'celestine')).toEqual([
      { type: 'retreatUnit', unit: second, to: 2 },
      { type: 'retreatUnit', unit: second, to: 4 },
    ]);
    submit(game, 'celestine', { type: 'retreatUnit', unit: second, to: 2 });
    expect(unit(game, second)).toMatchObject({ spread: 2, reserve: false });
    expect(status(game).phase).toBe('Celestine Movement Round');
  });

  it('4 Surprise Reserve: within its Movement as it would move, so a non-aerial unit cannot pass through a spread holding enemies', () => {
    const game = toEvent(
      erdon({
        azuthkan: [{ type: 'baphite-swarm', at: 1 }, { type: 'goblin-assassins', at: 1 }, { type: 'baphite-swarm', at: 2 }, { type: 'deathknoll-ogres', at: 4 }],
        celestine: [{ type: 'celestine-paladins', at: 1 }, { type: 'celestine-crusaders', at: 1 }, { type: 'celestine-paladins', at: 3 }, { type: 'celestine-war-angels', at: 6 }],
      }),
      5,
      4,
    );
    // The Paladins at Dracosroar (Movement 2) would stop in Irondale or Akibatu, both held by Azuthkan; the War Angels fly over them.
    expect(legal(game, 'celestine')).toEqual([{ type: 'chooseUnit', unit: idOf(game, 'celestine-war-angels') }, { type: 'passChoice' }]);
  });

  it('4 Surprise Reserve: the Controlling army is always asked, even with no unit that can come, and only it passes', () => {
    const asked = (celestine: Arrangement['celestine']) => toEvent(erdon({ celestine }), 5, 4);
    const none = asked([{ type: 'celestine-paladins', at: 1 }, { type: 'celestine-crusaders', at: 1 }]);
    const some = asked([{ type: 'celestine-paladins', at: 1 }, { type: 'celestine-crusaders', at: 1 }, { type: 'celestine-paladins', at: 3 }]);
    expect(legal(none, 'celestine')).toEqual([{ type: 'passChoice' }]);
    expect(events(none, 'ChoicePassed')).toHaveLength(0);
    // The other army and spectators see the same thing whether a hidden unit could come or not.
    for (const viewer of ['azuthkan', null]) {
      const seen = (game: typeof none) => ({
        awaiting: status(game).awaiting,
        offered: warchon.redact!(lastEvent(game, 'ChoicesOffered'), viewer, game.state.game),
      });
      expect(seen(none)).toEqual(seen(some));
    }
    expect(status(none).awaiting).toEqual([{ seat: 'celestine', kind: 'CHOOSE_UNIT', prompt: 'Surprise Reserve: choose a unit to move into the battle at Erdon Pass, or pass' }]);
    submit(none, 'celestine', { type: 'passChoice' });
    expect(pendingKinds(none).sort()).toEqual(['azuthkan:COMMIT_NUMBER', 'celestine:COMMIT_NUMBER']);
  });

  it('4 Surprise Reserve: "from another location within that unit\'s Movement": also a spread holding enemies, if not Engaged', () => {
    const a: Arrangement = erdon({
      azuthkan: [{ type: 'baphite-swarm', at: 1 }, { type: 'goblin-assassins', at: 1 }, { type: 'baphite-swarm', at: 2 }, { type: 'deathknoll-ogres', at: 7 }],
      celestine: [{ type: 'celestine-paladins', at: 1 }, { type: 'celestine-crusaders', at: 1 }, { type: 'celestine-paladins', at: 2 }],
    });
    // Irondale holds both armies (its battle comes after Erdon Pass's): its Paladins are one spread away.
    const game = toEvent(a, 5, 4);
    const paladins = idOf(game, 'celestine-paladins', 2);
    expect(legal(game, 'celestine')).toEqual([{ type: 'chooseUnit', unit: paladins }, { type: 'passChoice' }]);
    submit(game, 'celestine', { type: 'chooseUnit', unit: paladins });
    expect(unit(game, paladins)).toMatchObject({ spread: 1, reserve: true });
    // An Engaged spread's units cannot leave: not offered.
    const locked = toEvent({ ...a, engaged: [{ spread: 2, turn: 0 }] }, 5, 4);
    expect(legal(locked, 'celestine')).toEqual([{ type: 'passChoice' }]);
  });

  it('5 Torrential Rain: combat ends at once', () => {
    const game = toEvent(erdon(), 5, 5);
    expect(lastEvent(game, 'EventResolved')).toMatchObject({ endsCombat: true });
    expect(events(game, 'CombatResolved')).toHaveLength(0);
    expect(lastEvent(game, 'BattleEnded')).toMatchObject({ spread: 1 });
  });

  it('one Random Event per location per turn: the next turn a 5 there sends to the Events Table again', () => {
    const game = toEvent(erdon(), 5, 5); // turn 1: Torrential Rain
    submit(game, 'celestine', { type: 'endMovement' });
    generate(game, 5, true);
    expect(events(game, 'RandomEventTriggered').map((e) => e.spread)).toEqual([1, 1]);
    expect(status(game)).toMatchObject({ round: 2, phase: 'Random Event at Erdon Pass' });
  });
});

describe('Dracosroar Events Table (a 2)', () => {
  const river = (more: Partial<Arrangement> = {}): Arrangement => ({
    azuthkan: [{ type: 'baphite-swarm', at: 3 }, { type: 'goblin-assassins', at: 3 }, ...reserves.azuthkan],
    celestine: [{ type: 'celestine-war-angels', at: 3 }, { type: 'celestine-crusaders', at: 3 }, { type: 'celestine-paladins', at: 1 }],
    ...more,
  });

  it('1 Ramping Water Elemental: on 1-2 a 4 CS, 2 Hit Aquatic unit joins the attacker for this turn', () => {
    const game = toEvent(river(), 2, 1);
    generate(game, 1);
    const joined = lastEvent(game, 'ElementalJoined');
    expect(joined).toMatchObject({ army: 'azuthkan' });
    expect(unit(game, joined.unit)).toMatchObject({ temporary: true, spread: 3 });
    generate(game, 1);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ attackTotal: 2 + 1 + 4, result: 'D2' });
    while (game.state.game.battle) submit(game, 'celestine', legal(game, 'celestine')[0]!);
    // It joined for this turn only.
    expect(unit(game, joined.unit).destroyed).toBe(true);
  });

  it('1 Ramping Water Elemental: on 3-4 it joins the defender; on 5 all armies fight at halved CS', () => {
    const defended = toEvent(river(), 2, 1);
    generate(defended, 3);
    expect(lastEvent(defended, 'ElementalJoined')).toMatchObject({ army: 'celestine' });
    generate(defended, 1);
    expect(lastEvent(defended, 'CombatResolved')).toMatchObject({ defenseTotal: 2 + 2 + 4 });

    const halved = toEvent(river(), 2, 1);
    generate(halved, 5);
    expect(lastEvent(halved, 'CSHalved')).toBeDefined();
    generate(halved, 1);
    expect(lastEvent(halved, 'CombatResolved')).toMatchObject({ attackTotal: 1, defenseTotal: 2 });
  });

  it('2 Accidental Fall: each army picks an opposing unit without Aerial or Aquatic; both are destroyed', () => {
    const game = toEvent(river(), 2, 2);
    // Azuthkan's only choice is the Crusaders (the War Angels fly): taken automatically. Celestine chooses.
    expect(pendingKinds(game)).toEqual(['celestine:CHOOSE_UNIT']);
    expect(legal(game, 'celestine').map((c) => c.unit).sort()).toEqual([idOf(game, 'baphite-swarm'), idOf(game, 'goblin-assassins')].sort());
    submit(game, 'celestine', { type: 'chooseUnit', unit: idOf(game, 'goblin-assassins') });
    expect(unit(game, idOf(game, 'goblin-assassins')).destroyed).toBe(true);
    expect(unit(game, idOf(game, 'celestine-crusaders')).destroyed).toBe(true);
    expect(unit(game, idOf(game, 'celestine-war-angels')).destroyed).toBe(false);
  });

  it('3 Magic Bridge: Dracosroar prints no attack restriction, so all attack as normal', () => {
    const game = toEvent(river(), 2, 3);
    expect(lastEvent(game, 'RandomEventDrawn')).toMatchObject({ name: 'Magic Bridge' });
    generate(game, 1);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ attackTotal: 3, defenseTotal: 4 });
  });

  it('4 Magic Bridge: the attacker commits units; on 1-2 the bridge is an illusion and committed units fall', () => {
    const game = toEvent(river(), 2, 4);
    expect(pendingKinds(game)).toEqual(['azuthkan:MAGIC_BRIDGE']);
    submit(game, 'azuthkan', { type: 'commitToBridge', unit: idOf(game, 'baphite-swarm') });
    submit(game, 'azuthkan', { type: 'crossBridge' });
    generate(game, 1);
    expect(unit(game, idOf(game, 'baphite-swarm')).destroyed).toBe(true);
    generate(game, 1);
    // The Goblins did not cross: they do not attack now; but they are still in the battle, and AE takes them.
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ attackTotal: 0, result: 'AE' });
    expect(events(game, 'UnitDestroyed').find((e) => e.unit === idOf(game, 'goblin-assassins'))).toMatchObject({ cause: 'Attacker Eliminated' });

    const safe = toEvent(river(), 2, 4);
    submit(safe, 'azuthkan', { type: 'commitToBridge', unit: idOf(safe, 'baphite-swarm') });
    submit(safe, 'azuthkan', { type: 'crossBridge' });
    generate(safe, 3);
    expect(unit(safe, idOf(safe, 'baphite-swarm')).destroyed).toBe(false);
    generate(safe, 1);
    expect(lastEvent(safe, 'CombatResolved')).toMatchObject({ attackTotal: 2 });
  });

  it("5 River's Fury: a random unit of each Battle Army takes 1 Hit", () => {
    const game = toEvent(river(), 2, 5);
    const fury = lastEvent(game, 'RiversFury');
    expect(fury.picks).toHaveLength(2);
    for (const p of fury.picks) {
      expect(unit(game, p.unit).army).not.toBe(p.army);
      expect(events(game, 'UnitHit').some((h) => h.unit === p.unit)).toBe(true);
    }
  });
});

describe('Mount Tzask Events Table (a 2 or a 4)', () => {
  const roster = [...DEMO_ROSTER, traitType('brimstone-dragons', 'azuthkan', ['Aerial', 'Brimstone Dragons'], { size: 3, movement: 3, as: 4, ds: 4 })];
  const volcano = (more: Partial<Arrangement> = {}): Arrangement => ({
    azuthkan: [{ type: 'baphite-swarm', at: 5 }, { type: 'deathknoll-ogres', at: 5 }, { type: 'goblin-assassins', at: 7 }],
    celestine: [{ type: 'celestine-war-angels', at: 5 }, { type: 'celestine-paladins', at: 5 }, { type: 'celestine-crusaders', at: 1 }],
    ...more,
  });

  it('1 Volcanic Eruption: every unit but Brimstone Dragons is destroyed; combat ends', () => {
    const game = toEvent(volcano({ options: { roster }, azuthkan: [{ type: 'brimstone-dragons', at: 5 }, { type: 'baphite-swarm', at: 5 }] }), 2, 1);
    expect(unit(game, idOf(game, 'brimstone-dragons')).destroyed).toBe(false);
    for (const u of ['baphite-swarm', 'celestine-war-angels', 'celestine-paladins']) expect(unit(game, idOf(game, u)).destroyed).toBe(true);
    expect(events(game, 'CombatResolved')).toHaveLength(0);
    // A roster may give Brimstone Dragons as the unit's name rather than as a trait: spared all the same.
    const named = [...DEMO_ROSTER, traitType('dragons', 'azuthkan', ['Aerial'], { size: 3, movement: 3, as: 4, ds: 4 }, 1, 'Brimstone Dragons')];
    const byName = toEvent(volcano({ options: { roster: named }, azuthkan: [{ type: 'dragons', at: 5 }, { type: 'baphite-swarm', at: 5 }] }), 2, 1);
    expect(unit(byName, idOf(byName, 'dragons')).destroyed).toBe(false);
    expect(unit(byName, idOf(byName, 'baphite-swarm')).destroyed).toBe(true);
  });

  it('2 Magma Flow: Movement 2 or less destroyed, the others retreat one spread; combat ends', () => {
    const game = toEvent(volcano({ celestine: [{ type: 'celestine-war-angels', at: 5 }, { type: 'celestine-paladins', at: 5 }, { type: 'celestine-crusaders', at: 6 }] }), 2, 2);
    expect(unit(game, idOf(game, 'deathknoll-ogres')).destroyed).toBe(true);
    expect(unit(game, idOf(game, 'celestine-paladins')).destroyed).toBe(true);
    // Baphite Swarm: neighbours of Mount Tzask are Irondale, Akibatu and Xetti Bishum (Celestine there).
    expect(legal(game, 'azuthkan')).toEqual([
      { type: 'retreatUnit', unit: idOf(game, 'baphite-swarm'), to: 2 },
      { type: 'retreatUnit', unit: idOf(game, 'baphite-swarm'), to: 4 },
    ]);
    submit(game, 'azuthkan', { type: 'retreatUnit', unit: idOf(game, 'baphite-swarm'), to: 4 });
    submit(game, 'celestine', { type: 'retreatUnit', unit: idOf(game, 'celestine-war-angels'), to: 2 });
    expect(events(game, 'CombatResolved')).toHaveLength(0);
    expect(status(game).phase).toBe('Celestine Movement Round');
  });

  it('2 Magma Flow: both armies choose their retreats from the position when the event happened, whoever answers first', () => {
    const play = (first: 'azuthkan' | 'celestine') => {
      const game = toEvent(volcano({ azuthkan: [{ type: 'baphite-swarm', at: 5 }, { type: 'goblin-assassins', at: 7 }], celestine: [{ type: 'celestine-war-angels', at: 5 }, { type: 'celestine-crusaders', at: 1 }] }), 2, 2);
      const swarm = idOf(game, 'baphite-swarm');
      const angels = idOf(game, 'celestine-war-angels');
      // Both are ordered to retreat at once; Irondale, Akibatu and Xetti Bishum are free of enemies.
      expect(legal(game, 'azuthkan').map((c) => c.to)).toEqual([2, 4, 6]);
      expect(legal(game, 'celestine').map((c) => c.to)).toEqual([2, 4, 6]);
      const answers = { azuthkan: { type: 'retreatUnit', unit: swarm, to: 4 }, celestine: { type: 'retreatUnit', unit: angels, to: 4 } } as const;
      const second = first === 'azuthkan' ? 'celestine' : 'azuthkan';
      submit(game, first, answers[first]);
      // The first answer takes no spread from the other army: Akibatu is still open to it.
      expect(legal(game, second).map((c) => c.to)).toEqual([2, 4, 6]);
      submit(game, second, answers[second]);
      return game;
    };
    for (const first of ['azuthkan', 'celestine'] as const) {
      const game = play(first);
      expect(unit(game, idOf(game, 'baphite-swarm')).spread).toBe(4);
      expect(unit(game, idOf(game, 'celestine-war-angels')).spread).toBe(4);
      // Akibatu (before Mount Tzask) now holds both armies: they fight there in a later turn.
      expect(status(game).phase).toBe('Celestine Movement Round');
    }
  });

  it('2 Magma Flow: no unit is destroyed because the other army\'s retreat was made first', () => {
    // Irondale and Xetti Bishum hold both armies: Akibatu is the only retreat of the Swarm and of the War Angels.
    const game = arranged({
      azuthkan: [{ type: 'baphite-swarm', at: 5 }, { type: 'baphite-swarm', at: 2 }, { type: 'goblin-assassins', at: 6 }],
      celestine: [{ type: 'celestine-war-angels', at: 5 }, { type: 'celestine-crusaders', at: 2 }, { type: 'celestine-paladins', at: 6 }],
    });
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 2, false); // Irondale: So
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ spread: 2, result: 'So' });
    generate(game, 2, true);
    generate(game, 2); // Mount Tzask: Magma Flow
    expect(lastEvent(game, 'RetreatsOrdered').retreats.map((r: any) => r.options)).toEqual([[4], [4]]);
    // Each retreat has one option, taken for its owner; both are made, into the same spread.
    const angels = idOf(game, 'celestine-war-angels');
    expect(unit(game, idOf(game, 'baphite-swarm', 1)).spread).toBe(4);
    expect(unit(game, angels)).toMatchObject({ destroyed: false, spread: 4 });
    expect(events(game, 'UnitDestroyed').filter((e) => e.cause.startsWith('Magma Flow'))).toHaveLength(0);
    expect(lastEvent(game, 'BattleBegan')).toMatchObject({ spread: 6 });
  });

  it('2 Magma Flow: a unit forced over Capacity makes its owner destroy units of his choice', () => {
    const game = toEvent(
      volcano({
        options: { roster },
        azuthkan: [
          { type: 'baphite-swarm', at: 5 },
          { type: 'deathknoll-ogres', at: 6 },
          { type: 'baphite-swarm', at: 6 },
          { type: 'goblin-assassins', at: 6 },
          { type: 'brimstone-dragons', at: 6 },
        ],
        celestine: [{ type: 'celestine-war-angels', at: 5 }, { type: 'celestine-paladins', at: 2 }, { type: 'celestine-crusaders', at: 4 }],
      }),
      2,
      2,
    );
    // The Swarm's only retreat is Xetti Bishum (Capacity 7), holding Size 6 already: 8 > 7.
    submit(game, 'celestine', { type: 'retreatUnit', unit: idOf(game, 'celestine-war-angels'), to: 2 });
    expect(unit(game, idOf(game, 'baphite-swarm', 1)).spread).toBe(6);
    const exceeded = lastEvent(game, 'CapacityExceeded');
    expect(exceeded).toMatchObject({ army: 'azuthkan', spread: 6, capacity: 7 });
    // Which class is over (not aerial: the Dragons fly) is Azuthkan's to know: the units at Xetti Bishum have not fought.
    expect(unit(game, idOf(game, 'deathknoll-ogres')).revealed).toBe(false);
    expect(warchon.redact!(exceeded, 'azuthkan', game.state.game)).toEqual({ ...exceeded, aerial: false });
    for (const viewer of ['celestine', null]) expect(warchon.redact!(exceeded, viewer, game.state.game)).toEqual({ ...exceeded, aerial: null });
    expect(pendingKinds(game)).toContain('azuthkan:DESTROY_UNIT');
    const choices = legal(game, 'azuthkan').map((c) => c.unit).sort();
    // Including units that were there first, and only non-aerial ones: aerial units count apart (the Dragons fly).
    expect(choices).toEqual([idOf(game, 'baphite-swarm', 1), idOf(game, 'deathknoll-ogres'), idOf(game, 'baphite-swarm', 2), idOf(game, 'goblin-assassins')].sort());
    submit(game, 'azuthkan', { type: 'destroyUnit', unit: idOf(game, 'goblin-assassins') });
    expect(pendingKinds(game)).not.toContain('azuthkan:DESTROY_UNIT');
    expect(unit(game, idOf(game, 'goblin-assassins')).destroyed).toBe(true);
  });

  it('3 Earthquake: units without Aerial take 1 Hit and fight at CS 1', () => {
    const game = toEvent(volcano(), 2, 3);
    expect(unit(game, idOf(game, 'baphite-swarm')).destroyed).toBe(true);
    expect(unit(game, idOf(game, 'celestine-paladins')).destroyed).toBe(true);
    expect(unit(game, idOf(game, 'deathknoll-ogres'))).toMatchObject({ hitsTaken: 1, destroyed: false });
    expect(unit(game, idOf(game, 'celestine-war-angels')).hitsTaken).toBe(0);
    generate(game, 1);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ attackTotal: 1, defenseTotal: 2 });
  });

  it('4 Lava Burst: Aerial units take 1 Hit and fight at CS 1', () => {
    const game = toEvent(volcano(), 2, 4);
    expect(unit(game, idOf(game, 'celestine-war-angels')).hitsTaken).toBe(1);
    expect(unit(game, idOf(game, 'deathknoll-ogres')).hitsTaken).toBe(0);
    generate(game, 1);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ attackTotal: 6, defenseTotal: 1 + 3 });
  });

  it('5 None: the original number gives the combat result', () => {
    const game = toEvent(volcano(), 4, 5);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ number: 4, row: 1 });
  });
});

describe('Xetti Bishum Events Table (a 4)', () => {
  const city = (more: Partial<Arrangement> = {}): Arrangement => ({
    azuthkan: [{ type: 'deathknoll-ogres', at: 6 }, { type: 'goblin-assassins', at: 6 }, { type: 'baphite-swarm', at: 7 }],
    celestine: [{ type: 'celestine-paladins', at: 6 }, { type: 'celestine-war-angels', at: 6 }, { type: 'celestine-crusaders', at: 1 }],
    ...more,
  });

  it('1 Assassination: on 1-2 the attacker loses a unit of his choice, on 3-4 the defender, on 5 nobody', () => {
    const game = toEvent(city(), 4, 1);
    generate(game, 1);
    expect(pendingKinds(game)).toEqual(['azuthkan:CHOOSE_UNIT']);
    submit(game, 'azuthkan', { type: 'chooseUnit', unit: idOf(game, 'goblin-assassins') });
    expect(unit(game, idOf(game, 'goblin-assassins')).destroyed).toBe(true);

    const def = toEvent(city(), 4, 1);
    generate(def, 3);
    expect(pendingKinds(def)).toEqual(['celestine:CHOOSE_UNIT']);

    const none = toEvent(city(), 4, 1);
    generate(none, 5);
    expect(events(none, 'UnitDestroyed')).toHaveLength(0);
    expect(pendingKinds(none).sort()).toEqual(['azuthkan:COMMIT_NUMBER', 'celestine:COMMIT_NUMBER']);
  });

  it('2 Swarming Mob: the largest unit fights at CS 0', () => {
    const game = toEvent(city(), 4, 2);
    generate(game, 1);
    // Ogres (Size 3) at 0; Goblin Assassins 1 + 1 in Xetti Bishum.
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ attackTotal: 2 });
    // In a tie, all such units: the Swarm, the Paladins and the War Angels (Size 2) all fight at 0.
    const tie = toEvent(city({ azuthkan: [{ type: 'baphite-swarm', at: 6 }, { type: 'goblin-assassins', at: 6 }, { type: 'deathknoll-ogres', at: 7 }] }), 4, 2);
    generate(tie, 1);
    expect(lastEvent(tie, 'CombatResolved')).toMatchObject({ attackTotal: 2, defenseTotal: 0 });
  });

  it('3 Cull the Weak: the unit(s) with the least DS are destroyed, on either side', () => {
    const game = toEvent(city(), 4, 3);
    // Goblin Assassins DS 1 + 1 here = 2; War Angels DS 2: a tie, both removed.
    expect(unit(game, idOf(game, 'goblin-assassins')).destroyed).toBe(true);
    expect(unit(game, idOf(game, 'celestine-war-angels')).destroyed).toBe(true);
    expect(unit(game, idOf(game, 'deathknoll-ogres')).destroyed).toBe(false);
  });

  it('4 Bribery: the Controlling army (the defender) takes an opposing unit for this turn', () => {
    const game = toEvent(city(), 4, 4);
    expect(pendingKinds(game)).toEqual(['celestine:CHOOSE_UNIT']);
    const ogres = idOf(game, 'deathknoll-ogres');
    submit(game, 'celestine', { type: 'chooseUnit', unit: ogres });
    expect(unit(game, ogres).fightsFor).toBe('celestine');
    // Its Size is 0 for Capacity this turn, for either army.
    expect(sizeIn(game.state.game, 6, 'azuthkan', false)).toBe(1);
    expect(sizeIn(game.state.game, 6, 'celestine', false)).toBe(2);
    generate(game, 1);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ attackTotal: 2, defenseTotal: 3 + 2 + 4 });
    expect(unit(game, ogres).fightsFor).toBe(null);
  });

  it('5 Shell Game: the non-Controlling army (the attacker) takes an opposing unit', () => {
    const game = toEvent(city(), 4, 5);
    expect(pendingKinds(game)).toEqual(['azuthkan:CHOOSE_UNIT']);
    expect(status(game).awaiting).toEqual([expect.objectContaining({ prompt: 'Shell Game: choose an opposing unit at Xetti Bishum to fight for you this turn' })]);
    submit(game, 'azuthkan', { type: 'chooseUnit', unit: idOf(game, 'celestine-paladins') });
    generate(game, 1);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ attackTotal: 4 + 2 + 3, defenseTotal: 2 });
  });
});

describe('spreads without an Events Table', () => {
  it('Irondale, Akibatu and Kier-Zhadd print no E: every number goes to the Combat Results Table', () => {
    const game = arranged({ azuthkan: [{ type: 'baphite-swarm', at: 2 }], celestine: [{ type: 'celestine-crusaders', at: 2 }, { type: 'celestine-paladins', at: 1 }] });
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 5);
    expect(events(game, 'RandomEventTriggered')).toHaveLength(0);
    expect(attempt(game, 'azuthkan', { type: 'commitNumber', number: 1 })).toMatchObject({ ok: false });
  });
});

describe('number prompts say what the number decides', () => {
  const prompts = (game: ReturnType<typeof arranged>) => [...new Set(status(game).awaiting.map((p) => p.prompt))];

  it('the combat result, the Events Table entry, or the event itself', () => {
    const game = arranged({ azuthkan: [{ type: 'deathknoll-ogres', at: 6 }, { type: 'goblin-assassins', at: 6 }], celestine: [{ type: 'celestine-paladins', at: 6 }] });
    submit(game, 'azuthkan', { type: 'endMovement' });
    expect(prompts(game)).toEqual(['Choose a secret number from 1 to 5: it decides the combat result of the battle at Xetti Bishum']);
    generate(game, 4, true);
    expect(prompts(game)).toEqual(['Choose a secret number from 1 to 5: it decides which entry of the Xetti Bishum Events Table happens']);
    generate(game, 1);
    expect(prompts(game)).toEqual([
      'Choose a secret number from 1 to 5: it decides the Assassination at Xetti Bishum (1-2: the attacking army loses a unit of its choice, 3-4: the defending army, 5: no effect)',
    ]);
  });

  it('Ramping Water Elemental and Magic Bridge name their own numbers', () => {
    const river = { azuthkan: [{ type: 'baphite-swarm', at: 3 }], celestine: [{ type: 'celestine-crusaders', at: 3 }] };
    const elemental = toEvent(river, 2, 1);
    expect(prompts(elemental)).toEqual([
      'Choose a secret number from 1 to 5: it decides the Ramping Water Elemental at Dracosroar, the Raging River (1-2: it joins the attacking army, 3-4: the defending army, 5: all armies at halved CS)',
    ]);
    const bridge = toEvent(river, 2, 4);
    submit(bridge, 'azuthkan', { type: 'crossBridge' });
    expect(prompts(bridge)).toEqual([
      'Choose a secret number from 1 to 5: it decides whether the Magic Bridge at Dracosroar, the Raging River is an illusion (1-2: the committed units without Aerial or Aquatic are destroyed)',
    ]);
  });
});
