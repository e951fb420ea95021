import { describe, expect, it } from 'vitest';
import { GameRegistry } from '../../../src/domain/kernel/index.ts';
import { DEMO_ROSTER, DEMO_SPREADS } from '../../../src/domain/warchon/data.ts';
import { warchon } from '../../../src/domain/warchon/index.ts';
import { legal, newGame, submit } from '../../support/play.ts';
import { SEATS } from './helpers.ts';

describe('creation options', () => {
  const registry = new GameRegistry([warchon]);

  it('{} gives the printed demo with secret numbers from both players', () => {
    expect(registry.validateOptions('warchon', {})).toEqual({ ok: true, value: { numbers: 'players' } });
    const game = newGame(warchon, {}, SEATS);
    expect(game.state.game.spreads).toEqual(DEMO_SPREADS);
    expect(game.state.game.unplaced).toEqual({
      azuthkan: ['baphite-swarm-1', 'baphite-swarm-2', 'deathknoll-ogres-1', 'goblin-assassins-1'],
      celestine: ['celestine-paladins-1', 'celestine-war-angels-1', 'celestine-crusaders-1'],
    });
  });

  it('accept another roster and other spreads as data, and refuse malformed ones', () => {
    expect(registry.validateOptions('warchon', { roster: DEMO_ROSTER, spreads: DEMO_SPREADS, numbers: 'server', turnLimit: 20 }).ok).toBe(true);
    expect(registry.validateOptions('warchon', { numbers: 'dice' }).ok).toBe(false);
    expect(registry.validateOptions('warchon', { spreads: [{ ...DEMO_SPREADS[0], rng: [['6']] }, DEMO_SPREADS[1]] }).ok).toBe(false);
    expect(registry.validateOptions('warchon', { roster: [{ key: 'x1', name: 'X', army: 'azuthkan', count: 1, lines: [] }] }).ok).toBe(false);
    const roster = [
      { key: 'war-golem', name: 'War Golem', army: 'azuthkan', count: 2, traits: ['Construct'], lines: [{ size: 1, movement: 1, as: 5, ds: 5 }] },
      { key: 'river-sprite', name: 'River Sprite', army: 'celestine', count: 1, traits: ['Aquatic'], lines: [{ size: 1, movement: 3, as: 1, ds: 1 }] },
    ];
    const validated = registry.validateOptions('warchon', { roster });
    expect(validated.ok).toBe(true);
    const game = newGame(warchon, (validated as { value: unknown }).value, SEATS);
    expect(legal(game, 'azuthkan').map((c) => c.unit)).toContain('war-golem-2');
  });

  it('refuse a roster the printed rules forbid: two copies of a Distinct unit, a unit both Nether and Purity', () => {
    const unit = { key: 'hero', name: 'Hero', army: 'celestine', lines: [{ size: 1, movement: 2, as: 2, ds: 2 }] };
    expect(registry.validateOptions('warchon', { roster: [{ ...unit, count: 1, descriptors: ['Human', 'Distinct'] }] }).ok).toBe(true);
    expect(registry.validateOptions('warchon', { roster: [{ ...unit, count: 2, descriptors: ['Human', 'Distinct'] }] }).ok).toBe(false);
    expect(registry.validateOptions('warchon', { roster: [{ ...unit, count: 2, descriptors: ['Human'] }] }).ok).toBe(true);
    expect(registry.validateOptions('warchon', { roster: [{ ...unit, count: 1, traits: ['Nether', 'Purity'] }] }).ok).toBe(false);
    expect(registry.validateOptions('warchon', { roster: [{ ...unit, count: 1, traits: ['Purity', 'Magical'] }] }).ok).toBe(true);
  });

  describe('refuse at creation, saying why, options that make setup impossible (a seat would wait with no legal command)', () => {
    const unit = (key: string, army: 'azuthkan' | 'celestine', size: number, count = 1) => ({
      key,
      name: key.replace(/-/g, ' '),
      army,
      count,
      descriptors: [],
      points: 1,
      traits: [],
      lines: [{ size, movement: 2, as: 2, ds: 2 }],
      special: '',
      terrainModifiers: [],
    });
    const setUp = (options: Record<string, unknown>) => () => newGame(warchon, registry.validateOptions('warchon', options).ok ? options : {}, SEATS);

    it('a unit bigger than every setup spread\'s Capacity', () => {
      // Azuthkan sets up in Mount Tzask, Xetti Bishum and Kier-Zhadd: Capacity 8 at most.
      const roster = [unit('titan', 'azuthkan', 9), unit('squire', 'celestine', 1)];
      expect(registry.validateOptions('warchon', { roster }).ok).toBe(true);
      expect(setUp({ roster })).toThrow('titan (Size 9) is bigger than the Capacity of every Azuthkan setup spread (at most 8)');
    });

    it('an army with no units', () => {
      expect(setUp({ roster: [unit('squire', 'celestine', 1)] })).toThrow('the Azuthkan army has no units');
      expect(setUp({ roster: [unit('imp', 'azuthkan', 1), unit('squire', 'celestine', 1, 0)] })).toThrow('the Celestine army has no units');
    });

    it('two unit types with the same key', () => {
      expect(setUp({ roster: [unit('imp', 'azuthkan', 1), { ...unit('imp', 'celestine', 1), name: 'Celestine imp' }] })).toThrow('two unit types have the key "imp"');
    });

    it('an army that no placement fits within its setup spreads\' Capacity', () => {
      // Three Size 2 units in two spreads of Capacity 3: only one fits in each.
      const options = { roster: [unit('imp', 'azuthkan', 1), unit('guard', 'celestine', 2, 3)], setupSpreads: { azuthkan: [5], celestine: [1, 4] }, spreads: DEMO_SPREADS.map((sp) => (sp.number === 1 || sp.number === 4 ? { ...sp, capacity: 3 } : sp)) };
      expect(setUp(options)).toThrow('the Celestine army does not fit within the Capacity of its setup spreads 1, 4');
    });

    it('a setup spread that does not exist', () => {
      expect(setUp({ setupSpreads: { azuthkan: [5, 9], celestine: [1] } })).toThrow('the Azuthkan army sets up in spread 9, which does not exist');
    });

    it('and during setup refuse a placement after which the rest of the army no longer fits', () => {
      // Capacity 3 and 2; units of Size 2, 2 and 1 fit only as 2+1 and 2.
      const options = { roster: [unit('imp', 'azuthkan', 1), unit('guard', 'celestine', 2, 2), unit('page', 'celestine', 1)], setupSpreads: { azuthkan: [5], celestine: [1, 4] }, spreads: DEMO_SPREADS.map((sp) => (sp.number === 1 ? { ...sp, capacity: 3 } : sp.number === 4 ? { ...sp, capacity: 2 } : sp)) };
      const game = newGame(warchon, options, SEATS);
      expect(legal(game, 'celestine')).not.toContainEqual({ type: 'placeUnit', unit: 'page-1', spread: 4 });
      expect(() => submit(game, 'celestine', { type: 'placeUnit', unit: 'page-1', spread: 4 })).toThrow(/the rest of your army would not fit/);
      submit(game, 'celestine', { type: 'placeUnit', unit: 'page-1', spread: 1 });
      submit(game, 'celestine', { type: 'placeUnit', unit: 'guard-1', spread: 4 }); // the last guard's only place, Erdon Pass, is taken for it
      expect(game.state.game.turn).toBe(1);
    });
  });
});
