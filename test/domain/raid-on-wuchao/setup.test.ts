import { describe, expect, it } from 'vitest';
import { raidOnWuchao } from '../../../src/domain/raid-on-wuchao/index.ts';
import { attempt, newGame } from '../../support/play.ts';
import { awaiting, DEPLOYMENT, deployed, g, legal, status, submit } from './helpers.ts';

const fresh = () => newGame(raidOnWuchao, {}, ['cao', 'yuan'], 'setup');

describe('§11 Setup', () => {
  it('has two seats, cao and yuan, and eight rounds', () => {
    expect(raidOnWuchao.seats).toEqual(['cao', 'yuan']);
    expect([raidOnWuchao.minPlayers, raidOnWuchao.maxPlayers]).toEqual([2, 2]);
    expect(g(fresh()).rounds).toBe(8);
  });

  it('places all four Cao units at A1, Cao controlling it, and waits for Yuan to set up', () => {
    const game = fresh();
    const cao = g(game).tokens.filter((t) => t.side === 'cao').map((t) => t.id);
    expect(cao).toHaveLength(4);
    for (const u of cao) expect(g(game).units[u]!.space).toBe('A1');
    expect(g(game).control.A1).toBe('cao');
    expect(status(game)).toMatchObject({ stage: 'SETUP', phase: 'Setup', round: null });
    expect(awaiting(game)).toEqual(['yuan:SETUP']);
    expect(legal(game, 'cao')).toEqual([]);
    expect(attempt(game, 'cao', { type: 'endMovement' })).toMatchObject({ ok: false, code: 'NOT_YOUR_TURN' });
  });

  it('refuses Yuan units in zones A-C', () => {
    const game = fresh();
    for (const sp of ['A1', 'B2', 'C3']) {
      const d = attempt(game, 'yuan', { type: 'placeUnit', unit: 'zhang-he', space: sp });
      expect(d).toMatchObject({ ok: false, code: 'ILLEGAL_COMMAND', reason: expect.stringContaining('zone') });
    }
    expect(legal(game, 'yuan').some((c) => ['A', 'B', 'C'].includes(String(c.space)[0]!))).toBe(false);
    submit(game, 'yuan', { type: 'placeUnit', unit: 'zhang-he', space: 'D1' });
    expect(g(game).units['zhang-he']!.space).toBe('D1');
  });

  it('allows at most five Yuan units a space', () => {
    const game = fresh();
    const five = ['chunyu-qiong', 'sui-yuanjin', 'lu-weihuang', 'han-juzi', 'zhao-rui'];
    for (const unit of five.slice(0, 4)) submit(game, 'yuan', { type: 'placeUnit', unit, space: 'F1' });
    // Four there: room for a fifth, offered for every unit left.
    expect(legal(game, 'yuan').filter((c) => c.space === 'F1').map((c) => c.unit).sort()).toEqual(Object.keys(DEPLOYMENT).filter((u) => !five.slice(0, 4).includes(u)).sort());
    submit(game, 'yuan', { type: 'placeUnit', unit: five[4]!, space: 'F1' });
    expect(attempt(game, 'yuan', { type: 'placeUnit', unit: 'gao-lan', space: 'F1' })).toMatchObject({ ok: false, reason: expect.stringContaining('stacking limit') });
    expect(legal(game, 'yuan').filter((c) => c.space === 'F1')).toEqual([]);
  });

  it('ends with the ninth unit: round 1, Cao movement; Yuan controls its setup spaces and both granaries', () => {
    const game = fresh();
    const entries = Object.entries(DEPLOYMENT).filter(([, sp]) => sp !== 'H2');
    entries.push(['granary-guard-2', 'F3'], ['sui-yuanjin', 'F3']);
    for (const [unit, sp] of entries.slice(0, 8)) submit(game, 'yuan', { type: 'placeUnit', unit, space: sp });
    expect(status(game).stage).toBe('SETUP');
    submit(game, 'yuan', { type: 'placeUnit', unit: entries[8]![0], space: entries[8]![1] });
    expect(status(game)).toMatchObject({ stage: 'ACTIVE', phase: 'Cao movement', round: 1 });
    expect(awaiting(game)).toEqual(['cao:MOVE']);
    expect(g(game).control).toMatchObject({ H1: 'yuan', H2: 'yuan', F3: 'yuan', E1: 'yuan', A1: 'cao', B1: null });
  });

  // RULINGS, General: "A choice with exactly one legal option is taken automatically." (issue 21.6)
  it('places Yuan\'s last unit by itself when exactly one space is left for it (a map given in the options)', () => {
    const map = { spaces: ['A1', 'B1', 'H1', 'H2'], edges: [['A1', 'B1'], ['B1', 'H1'], ['H1', 'H2']] };
    const game = newGame(raidOnWuchao, { map }, ['cao', 'yuan']);
    const units = Object.keys(DEPLOYMENT);
    for (const unit of units.slice(0, 5)) submit(game, 'yuan', { type: 'placeUnit', unit, space: 'H1' });
    for (const unit of units.slice(5, 7)) submit(game, 'yuan', { type: 'placeUnit', unit, space: 'H2' });
    // Two units left, one space (H2) with room: still two options (which unit goes first does not matter, but each is a command).
    expect(status(game).stage).toBe('SETUP');
    const events = submit(game, 'yuan', { type: 'placeUnit', unit: units[7]!, space: 'H2' });
    expect(events).toEqual([
      { type: 'UnitPlaced', unit: units[7], space: 'H2' },
      { type: 'UnitPlaced', unit: units[8], space: 'H2' },
      { type: 'SetupCompleted', round: 1 },
    ]);
    expect(status(game)).toMatchObject({ stage: 'ACTIVE', phase: 'Cao movement' });
  });

  it('accepts the whole setup in one deploy command, and refuses an incomplete one storing nothing', () => {
    const game = fresh();
    const placements = Object.entries(DEPLOYMENT).map(([unit, space]) => ({ unit, space }));
    expect(attempt(game, 'yuan', { type: 'deploy', placements: placements.slice(1) })).toMatchObject({ ok: false, reason: expect.stringContaining('chunyu-qiong') });
    expect(Object.values(g(game).units).filter((u) => u.side === 'yuan' && u.space)).toEqual([]);
    submit(game, 'yuan', { type: 'deploy', placements });
    expect(status(game).phase).toBe('Cao movement');
    expect(g(deployed()).units).toEqual(g(game).units);
  });
});
