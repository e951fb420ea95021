import { describe, expect, it } from 'vitest';
import { GameRegistry } from '../../../src/domain/kernel/index.ts';
import { DEMO_ROSTER, DEMO_SPREADS } from '../../../src/domain/warchon/data.ts';
import { warchon } from '../../../src/domain/warchon/index.ts';
import { legal, newGame } from '../../support/play.ts';
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
});
