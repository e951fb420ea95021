import { describe, expect, it } from 'vitest';
import { DEMO_ROSTER, DEMO_SPREADS } from '../../../src/domain/warchon/data.ts';
import { GameRegistry } from '../../../src/domain/kernel/index.ts';
import { warchon } from '../../../src/domain/warchon/index.ts';
import { attempt, legal, newGame, status, submit } from '../../support/play.ts';
import { arranged, events, generate, idOf, lastEvent, pendingKinds, SEATS, traitType, unit } from './helpers.ts';

const roster = [
  ...DEMO_ROSTER,
  traitType('berserker', 'azuthkan', ['Berserk'], { size: 1, movement: 2, as: 3, ds: 1 }),
  traitType('golem', 'azuthkan', ['Construct'], { size: 2, movement: 1, as: 2, ds: 2 }),
  { ...traitType('yeti', 'azuthkan', ['Frigid'], { size: 2, movement: 2, as: 2, ds: 2 }), terrainModifiers: [{ terrain: 'Frigid', cs: -1 }] },
];

describe("each spread's special rules", () => {
  it('Irondale: all Construct units gain +1 CS', () => {
    const game = arranged({ options: { roster }, azuthkan: [{ type: 'golem', at: 2 }, { type: 'baphite-swarm', at: 2 }], celestine: [{ type: 'celestine-crusaders', at: 2 }, { type: 'celestine-paladins', at: 1 }] });
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 2);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ attackTotal: 3 + 2 });
  });

  it('Akibatu: units in battle always remain Engaged', () => {
    const game = arranged({
      azuthkan: [{ type: 'deathknoll-ogres', at: 4 }, { type: 'goblin-assassins', at: 7 }],
      celestine: [{ type: 'celestine-paladins', at: 4 }, { type: 'celestine-crusaders', at: 3 }],
    });
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 2);
    // +1 column, row 2 at Akibatu: D1, which would let units leave elsewhere.
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ difference: 1, result: 'D1' });
    expect(unit(game, idOf(game, 'celestine-paladins')).destroyed).toBe(true);
    const ogres = arranged({
      azuthkan: [{ type: 'deathknoll-ogres', at: 4 }, { type: 'goblin-assassins', at: 7 }],
      celestine: [{ type: 'celestine-paladins', at: 4 }, { type: 'celestine-war-angels', at: 4 }, { type: 'celestine-crusaders', at: 3 }],
    });
    submit(ogres, 'azuthkan', { type: 'endMovement' });
    generate(ogres, 1);
    // -1 column, row 1: A2 on the Ogres (2 Hits): they die; the others stay Engaged.
    expect(lastEvent(ogres, 'CombatResolved')).toMatchObject({ difference: -1, result: 'A2' });
    const soft = arranged({
      azuthkan: [{ type: 'deathknoll-ogres', at: 4 }, { type: 'baphite-swarm', at: 4 }, { type: 'goblin-assassins', at: 7 }],
      celestine: [{ type: 'celestine-paladins', at: 4 }, { type: 'celestine-war-angels', at: 4 }, { type: 'celestine-crusaders', at: 3 }],
    });
    submit(soft, 'azuthkan', { type: 'endMovement' });
    generate(soft, 3);
    expect(lastEvent(soft, 'CombatResolved')).toMatchObject({ difference: 1, result: 'A2D2' });
    while (soft.state.game.battle) {
      const seat = soft.state.game.pending[0]!.seat;
      submit(soft, seat, legal(soft, seat)[0]!);
    }
    expect(lastEvent(soft, 'Engaged')).toMatchObject({ spread: 4 });
    const survivors = Object.values(soft.state.game.units).filter((u) => u.army === 'celestine' && u.spread === 4 && !u.destroyed);
    for (const u of survivors) expect((attempt(soft, 'celestine', { type: 'moveUnit', unit: u.id, to: 1 }) as any).reason).toMatch(/Engaged/);
  });

  it('Xetti Bishum: Goblin Assassins gain +1 CS', () => {
    const game = arranged({ azuthkan: [{ type: 'goblin-assassins', at: 6 }], celestine: [{ type: 'celestine-crusaders', at: 6 }, { type: 'celestine-paladins', at: 1 }] });
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 1, false);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ attackTotal: 2 });
  });

  it('Kier-Zhadd: units of Size 3 or more gain +1 CS', () => {
    const game = arranged({ azuthkan: [{ type: 'deathknoll-ogres', at: 7 }, { type: 'baphite-swarm', at: 7 }], celestine: [{ type: 'celestine-paladins', at: 7 }, { type: 'celestine-paladins', at: 1 }] });
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 2);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ attackTotal: 5 + 2, defenseTotal: 3 });
  });

  it('Frigid locations: the Baphite Swarm loses 1 CS; a Frigid unit is unhindered', () => {
    const spreads = DEMO_SPREADS.map((s) => (s.number === 7 ? { ...s, terrain: ['Mountain', 'Frigid'] } : s));
    const game = arranged({
      options: { roster, spreads },
      azuthkan: [{ type: 'baphite-swarm', at: 7 }, { type: 'yeti', at: 7 }],
      celestine: [{ type: 'celestine-crusaders', at: 7 }, { type: 'celestine-paladins', at: 1 }],
    });
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 2);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ attackTotal: 1 + 2 });
  });
});

describe('Berserk (Strategy Round)', () => {
  it('is declared before the battle\'s first number: CS doubled, then destroyed after the battle', () => {
    const game = arranged({ options: { roster }, azuthkan: [{ type: 'berserker', at: 2 }, { type: 'goblin-assassins', at: 7 }], celestine: [{ type: 'celestine-crusaders', at: 2 }, { type: 'celestine-paladins', at: 2 }] });
    submit(game, 'azuthkan', { type: 'endMovement' });
    const berserker = idOf(game, 'berserker');
    expect(status(game).awaiting).toEqual([expect.objectContaining({ seat: 'azuthkan', kind: 'STRATEGY' })]);
    expect(status(game).phase).toMatch(/Strategy Round/);
    expect(legal(game, 'azuthkan')).toEqual([{ type: 'goBerserk', unit: berserker }, { type: 'endStrategy' }]);
    submit(game, 'azuthkan', { type: 'goBerserk', unit: berserker });
    // Ending the Strategy Round is now the only choice left: taken at once.
    expect(lastEvent(game, 'StrategyEnded')).toMatchObject({ army: 'azuthkan' });
    generate(game, 2);
    // Irondale row 2, -1/0/+1: So. AS 3 x 2 = 6 against DS 5.
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ attackTotal: 6, defenseTotal: 5, result: 'So' });
    expect(lastEvent(game, 'UnitDestroyed')).toMatchObject({ unit: berserker, cause: 'Berserk' });
  });

  it('triples CS at Akibatu, and Hits may be assigned to a berserking unit', () => {
    const game = arranged({
      options: { roster },
      azuthkan: [{ type: 'berserker', at: 4 }, { type: 'goblin-assassins', at: 4 }, { type: 'baphite-swarm', at: 7 }],
      celestine: [{ type: 'celestine-crusaders', at: 4 }, { type: 'celestine-paladins', at: 1 }],
    });
    submit(game, 'azuthkan', { type: 'endMovement' });
    const berserker = idOf(game, 'berserker');
    submit(game, 'azuthkan', { type: 'goBerserk', unit: berserker });
    generate(game, 3);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ attackTotal: 9 + 1, result: 'A1D3' });
    expect(legal(game, 'azuthkan')).toContainEqual({ type: 'assignHit', unit: berserker });
    submit(game, 'azuthkan', { type: 'assignHit', unit: berserker });
    expect(unit(game, idOf(game, 'goblin-assassins')).destroyed).toBe(false);
  });

  it('may be declined: endStrategy leaves CS as it is and the unit survives the battle', () => {
    const game = arranged({ options: { roster }, azuthkan: [{ type: 'berserker', at: 2 }, { type: 'goblin-assassins', at: 7 }], celestine: [{ type: 'celestine-paladins', at: 2 }, { type: 'celestine-crusaders', at: 1 }] });
    submit(game, 'azuthkan', { type: 'endMovement' });
    submit(game, 'azuthkan', { type: 'endStrategy' });
    generate(game, 2);
    expect(lastEvent(game, 'CombatResolved')).toMatchObject({ attackTotal: 3, defenseTotal: 3, result: 'So' });
    expect(unit(game, idOf(game, 'berserker')).destroyed).toBe(false);
  });

  it('doubles CS with every prior modification in effect; later alterations act on the Berserker CS', () => {
    const more = [
      ...roster,
      traitType('war-machine', 'azuthkan', ['Berserk', 'Construct'], { size: 2, movement: 1, as: 3, ds: 1 }),
      traitType('zealot', 'celestine', ['Berserk'], { size: 1, movement: 2, as: 1, ds: 2 }),
    ];
    // Irondale: Construct +1 CS first, then doubled: (3 + 1) x 2 = 8, not 3 x 2 + 1.
    const prior = arranged({ options: { roster: more }, azuthkan: [{ type: 'war-machine', at: 2 }, { type: 'goblin-assassins', at: 7 }], celestine: [{ type: 'celestine-paladins', at: 2 }, { type: 'celestine-crusaders', at: 1 }] });
    submit(prior, 'azuthkan', { type: 'endMovement' });
    submit(prior, 'azuthkan', { type: 'goBerserk', unit: idOf(prior, 'war-machine') });
    generate(prior, 2);
    expect(lastEvent(prior, 'CombatResolved')).toMatchObject({ attackTotal: 8 });
    // Erdon Pass: the defending Zealot goes berserk (DS 2 x 2), then Fortified Defense adds 2 to that: 6, not (2 + 2) x 2.
    const later = arranged({
      options: { roster: more },
      azuthkan: [{ type: 'baphite-swarm', at: 1 }, { type: 'goblin-assassins', at: 7 }],
      celestine: [{ type: 'zealot', at: 1 }, { type: 'celestine-crusaders', at: 1 }],
    });
    submit(later, 'azuthkan', { type: 'endMovement' });
    submit(later, 'celestine', { type: 'goBerserk', unit: idOf(later, 'zealot') });
    generate(later, 5, true);
    generate(later, 2);
    expect(lastEvent(later, 'RandomEventDrawn')).toMatchObject({ name: 'Fortified Defense' });
    generate(later, 1);
    expect(lastEvent(later, 'CombatResolved')).toMatchObject({ defenseTotal: 6 + 4 });
  });

  it('is not offered when no unit in the battle has Berserk', () => {
    const game = arranged({ azuthkan: [{ type: 'baphite-swarm', at: 2 }], celestine: [{ type: 'celestine-crusaders', at: 2 }, { type: 'celestine-paladins', at: 1 }] });
    submit(game, 'azuthkan', { type: 'endMovement' });
    expect(pendingKinds(game).sort()).toEqual(['azuthkan:COMMIT_NUMBER', 'celestine:COMMIT_NUMBER']);
    expect(events(game, 'StrategyRoundBegan')).toHaveLength(0);
  });
});

describe('Victory', () => {
  it('an army with no units left loses', () => {
    const game = arranged({ azuthkan: [{ type: 'deathknoll-ogres', at: 7 }], celestine: [{ type: 'celestine-crusaders', at: 7 }] });
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 1);
    expect(status(game)).toMatchObject({ stage: 'FINISHED', result: { winners: ['azuthkan'], reason: 'the Celestine army has no units left' } });
    expect(legal(game, 'azuthkan')).toEqual([]);
  });

  it('both armies destroyed at once is a draw', () => {
    const game = arranged({ azuthkan: [{ type: 'baphite-swarm', at: 5 }], celestine: [{ type: 'celestine-crusaders', at: 5 }] });
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 2, true);
    generate(game, 1); // Volcanic Eruption
    expect(status(game)).toMatchObject({ stage: 'FINISHED', result: { winners: [] } });
  });

  it('one result that takes both armies\' last units: every Hit is assigned first, and the game is a draw, whichever army attacked', () => {
    // Irondale, Swarm AS 2 against Crusaders DS 2 (or Crusaders AS 2 against Swarm DS 2): a 3 reads A1D1.
    for (const active of ['azuthkan', 'celestine'] as const) {
      const game = arranged({ active, azuthkan: [{ type: 'baphite-swarm', at: 2 }], celestine: [{ type: 'celestine-crusaders', at: 2 }] });
      submit(game, active, { type: 'endMovement' });
      generate(game, 3);
      expect(lastEvent(game, 'CombatResolved')).toMatchObject({ result: 'A1D1' });
      expect(unit(game, idOf(game, 'baphite-swarm')).destroyed).toBe(true);
      expect(unit(game, idOf(game, 'celestine-crusaders')).destroyed).toBe(true);
      expect(events(game, 'HitAssigned')).toHaveLength(2);
      expect(status(game)).toMatchObject({ stage: 'FINISHED', result: { winners: [], reason: 'both armies destroyed (draw)' } });
    }
  });

  it('Deadly Confrontation taking both armies\' last units is a draw too', () => {
    const game = arranged({ azuthkan: [{ type: 'baphite-swarm', at: 1 }], celestine: [{ type: 'celestine-crusaders', at: 1 }] });
    submit(game, 'azuthkan', { type: 'endMovement' });
    generate(game, 5, true);
    generate(game, 3); // Deadly Confrontation: both armies assign 1 Hit
    expect(events(game, 'HitAssigned').map((e) => e.army).sort()).toEqual(['azuthkan', 'celestine']);
    expect(status(game)).toMatchObject({ stage: 'FINISHED', result: { winners: [] } });
  });

  it('the last unit of one army falls while the other still chooses its Hit: the game waits for that choice, then ends', () => {
    // Celestine attacks with Paladins and Crusaders (AS 5) against the lone Swarm (DS 2) at Irondale: +3, a 3 reads A1D1.
    const game = arranged({ active: 'celestine', azuthkan: [{ type: 'baphite-swarm', at: 2 }], celestine: [{ type: 'celestine-crusaders', at: 2 }, { type: 'celestine-paladins', at: 2 }] });
    submit(game, 'celestine', { type: 'endMovement' });
    generate(game, 3);
    expect(unit(game, idOf(game, 'baphite-swarm')).destroyed).toBe(true);
    expect(status(game)).toMatchObject({ stage: 'ACTIVE', awaiting: [expect.objectContaining({ seat: 'celestine', kind: 'ALLOCATE_DAMAGE' })] });
    submit(game, 'celestine', { type: 'assignHit', unit: idOf(game, 'celestine-crusaders') });
    expect(status(game)).toMatchObject({ stage: 'FINISHED', result: { winners: ['celestine'] } });
  });

  it('a turn limit ends the game as a draw', () => {
    const game = arranged({ options: { turnLimit: 2 }, azuthkan: [{ type: 'baphite-swarm', at: 7 }], celestine: [{ type: 'celestine-crusaders', at: 1 }] });
    submit(game, 'azuthkan', { type: 'endMovement' });
    expect(status(game).stage).toBe('ACTIVE');
    submit(game, 'celestine', { type: 'endMovement' });
    expect(status(game)).toMatchObject({ stage: 'FINISHED', result: { winners: [], reason: 'turn limit 2 reached (draw)' } });
  });
});

describe("a multi-Hit unit's damaged face", () => {
  // A roster made for the test: Wyvern Knights lose Aerial with their first Hit; Clockwork Knights become a Construct.
  const faces = [
    ...DEMO_ROSTER,
    {
      ...traitType('wyvern-knights', 'celestine', ['Aerial', 'Purity'], { size: 2, movement: 3, as: 3, ds: 3 }, 2),
      lines: [{ size: 2, movement: 3, as: 3, ds: 3 }, { size: 2, movement: 3, as: 2, ds: 2, traits: ['Purity'] }],
      special: 'Rides a wyvern.',
    },
    {
      ...traitType('clockwork-knights', 'azuthkan', ['Nether'], { size: 2, movement: 2, as: 2, ds: 2 }, 2),
      lines: [{ size: 2, movement: 2, as: 2, ds: 2 }, { size: 2, movement: 2, as: 2, ds: 2, traits: ['Nether', 'Construct'] }],
    },
  ];

  it('uses the traits above its present stats: Wyvern Knights fly at full strength and walk once hit', () => {
    // Enemies in Dracosroar (2) and Akibatu (4): a walk from Erdon Pass (1) to 3 would stop in either, a flight passes over.
    const fresh = arranged({ active: 'celestine', options: { roster: faces }, azuthkan: [{ type: 'baphite-swarm', at: 2 }, { type: 'goblin-assassins', at: 4 }], celestine: [{ type: 'wyvern-knights', at: 1 }] });
    submit(fresh, 'celestine', { type: 'moveUnit', unit: idOf(fresh, 'wyvern-knights'), to: 3 });
    expect(unit(fresh, idOf(fresh, 'wyvern-knights')).spread).toBe(3);

    const hit = arranged({ active: 'celestine', options: { roster: faces }, azuthkan: [{ type: 'baphite-swarm', at: 2 }, { type: 'goblin-assassins', at: 4 }], celestine: [{ type: 'wyvern-knights', at: 1, hits: 1 }] });
    const knights = idOf(hit, 'wyvern-knights');
    expect(attempt(hit, 'celestine', { type: 'moveUnit', unit: knights, to: 3 })).toMatchObject({ ok: false, reason: expect.stringContaining('cannot walk to') });
    // The view shows the face's traits; the unit keeps its special abilities.
    expect((warchon.view(hit.state.game, 'celestine') as any).units.find((u: any) => u.id === knights)).toMatchObject({ traits: ['Purity'], as: 2, ds: 2 });
    expect(hit.state.game.types['wyvern-knights']!.special).toBe('Rides a wyvern.');
  });

  it('a face that gains a trait gains what the trait brings: a damaged Clockwork Knights is a Construct at Irondale', () => {
    const at = (hits: number) => {
      const game = arranged({ options: { roster: faces }, azuthkan: [{ type: 'clockwork-knights', at: 2, hits }], celestine: [{ type: 'celestine-paladins', at: 2 }] });
      submit(game, 'azuthkan', { type: 'endMovement' });
      generate(game, 1);
      return lastEvent(game, 'CombatResolved').attackTotal;
    };
    expect(at(0)).toBe(2);
    expect(at(1)).toBe(2 + 1);
  });

  it('is given in the roster data, and refused when the full-strength face starts off both Nether and Purity', () => {
    const registry = new GameRegistry([warchon]);
    expect(registry.validateOptions('warchon', { roster: faces }).ok).toBe(true);
    const both = faces.map((t) => (t.key === 'wyvern-knights' ? { ...t, traits: ['Aerial'], lines: [{ ...t.lines[0]!, traits: ['Nether', 'Purity'] }, t.lines[1]!] } : t));
    expect(() => newGame(warchon, { roster: both }, SEATS)).toThrow('wyvern-knights starts off with both Nether and Purity');
  });
});
