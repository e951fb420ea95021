import { describe, expect, it } from 'vitest';
import { attempt, legal, status, submit } from '../../support/play.ts';
import { scenario } from './scenario.ts';

const shuGenerals = { 'shu-general-1': 'L12', 'shu-general-2': 'K12' };
const atk = (unit: string, target: string) => ({ type: 'attack', unit, target });

function damageOf(g: ReturnType<typeof scenario>, unit: string): number {
  return g.state.game.damage[unit] ?? 0;
}

describe('ATTACK PHASE', () => {
  it('does 1 damage per attack, Shock Troops 2', () => {
    const g = scenario({ phase: 'attack', units: { 'wei-infantry-1': 'E5', 'wei-shockTroops-1': 'E6', 'shu-shockTroops-1': 'F6', ...shuGenerals } });
    expect(submit(g, 'wei', atk('wei-infantry-1', 'shu-shockTroops-1'))).toEqual([
      { type: 'UnitAttacked', seat: 'wei', unit: 'wei-infantry-1', target: 'shu-shockTroops-1', damage: 1, damageThisPhase: 1, defense: 5 },
    ]);
    expect(submit(g, 'wei', atk('wei-shockTroops-1', 'shu-shockTroops-1'))[0]).toMatchObject({ damage: 2, damageThisPhase: 3 });
  });

  it('lets each unit attack at most once, only enemy units', () => {
    const g = scenario({ phase: 'attack', units: { 'wei-infantry-1': 'E5', 'wei-infantry-2': 'E4', 'shu-shockTroops-1': 'F6', 'shu-shockTroops-2': 'F5', ...shuGenerals } });
    submit(g, 'wei', atk('wei-infantry-1', 'shu-shockTroops-1'));
    expect(attempt(g, 'wei', atk('wei-infantry-1', 'shu-shockTroops-2'))).toMatchObject({ ok: false, reason: 'Wei Infantry 1 has already attacked this turn' });
    expect(attempt(g, 'wei', atk('wei-infantry-2', 'wei-infantry-1'))).toMatchObject({ ok: false, reason: 'Wei Infantry 1 is your own unit' });
    expect(legal(g, 'wei')).toEqual([atk('wei-infantry-2', 'shu-shockTroops-2'), { type: 'endTurn' }]);
  });

  it('reaches targets within Range in king moves; range 2+ fires over other units, range 1 only next door', () => {
    const g = scenario({
      phase: 'attack',
      units: { 'wei-rockets-1': 'C3', 'wei-archers-1': 'D4', 'wei-infantry-1': 'E5', 'wei-infantry-2': 'D6', 'shu-infantry-1': 'F6', 'shu-infantry-2': 'G7', ...shuGenerals },
    });
    expect(attempt(g, 'wei', atk('wei-rockets-1', 'shu-infantry-2'))).toMatchObject({ ok: false, reason: 'Shu Infantry 2 is 4 squares from Wei Rockets 1, whose range is 3' });
    expect(attempt(g, 'wei', atk('wei-infantry-2', 'shu-infantry-2'))).toMatchObject({ ok: false, reason: expect.stringContaining('whose range is 1') });
    // Archers at D4 fire at F6 over the Wei Infantry on E5; Rockets at C3 at distance 3 (diagonal).
    submit(g, 'wei', atk('wei-archers-1', 'shu-infantry-1'));
    submit(g, 'wei', atk('wei-rockets-1', 'shu-infantry-1'));
    expect(damageOf(g, 'shu-infantry-1')).toBe(2);
    expect(legal(g, 'wei')).toEqual([atk('wei-infantry-1', 'shu-infantry-1'), { type: 'endTurn' }]);
  });

  it('fires over mountains and forests too, and range 2+ also reaches the adjacent squares (ruling: nothing blocks fire)', () => {
    const g = scenario({
      phase: 'attack',
      mountains: ['E5'],
      forests: ['E6', 'E7'],
      units: { 'wei-archers-1': 'D4', 'wei-rockets-1': 'D7', 'wei-horseArchers-1': 'G5', 'shu-infantry-1': 'F6', ...shuGenerals },
    });
    expect(legal(g, 'wei')).toEqual([
      atk('wei-archers-1', 'shu-infantry-1'),
      atk('wei-rockets-1', 'shu-infantry-1'),
      atk('wei-horseArchers-1', 'shu-infantry-1'),
      { type: 'endTurn' },
    ]);
    submit(g, 'wei', atk('wei-archers-1', 'shu-infantry-1'));
    submit(g, 'wei', atk('wei-rockets-1', 'shu-infantry-1'));
    submit(g, 'wei', atk('wei-horseArchers-1', 'shu-infantry-1'));
  });

  it('ends the turn by itself once no unit has anything left to attack', () => {
    const g = scenario({ phase: 'attack', units: { 'wei-infantry-1': 'E5', 'shu-shockTroops-1': 'F6', ...shuGenerals } });
    expect(submit(g, 'wei', atk('wei-infantry-1', 'shu-shockTroops-1')).map((e) => e.type)).toEqual(['UnitAttacked', 'TurnEnded', 'TurnStarted']);
    expect(status(g)).toMatchObject({ phase: 'Shu Move Phase' });
    expect(g.state.game.damage).toEqual({});
  });
});

describe('Defense', () => {
  it('is +1 for units next to a friendly General (not an enemy one, and only +1 for two Generals)', () => {
    const defenseOfF6 = (units: Record<string, string>) => {
      const g = scenario({ phase: 'attack', units: { 'wei-infantry-1': 'E5', 'wei-rockets-1': 'C3', 'shu-infantry-1': 'F6', 'shu-general-9': 'L12', ...units } });
      return (submit(g, "wei", atk("wei-infantry-1", "shu-infantry-1"))[0] as unknown as { defense: number }).defense;
    };
    expect(defenseOfF6({})).toBe(4);
    expect(defenseOfF6({ 'shu-general-1': 'G7' })).toBe(5);
    expect(defenseOfF6({ 'shu-general-1': 'G7', 'shu-general-2': 'G6' })).toBe(5);
    expect(defenseOfF6({ 'wei-general-1': 'E7' })).toBe(4);
    expect(defenseOfF6({ 'shu-general-1': 'H8' })).toBe(4);
  });

  it('is +1 for a General next to the other General, not for a General alone', () => {
    const g = scenario({ phase: 'attack', units: { 'wei-infantry-1': 'E5', 'wei-infantry-2': 'E6', 'shu-general-1': 'F6', 'shu-general-2': 'L12' } });
    expect(submit(g, 'wei', atk('wei-infantry-1', 'shu-general-1'))[0]).toMatchObject({ defense: 3 });
    const h = scenario({ phase: 'attack', units: { 'wei-infantry-1': 'E5', 'wei-infantry-2': 'E6', 'shu-general-1': 'F6', 'shu-general-2': 'G7' } });
    expect(submit(h, 'wei', atk('wei-infantry-1', 'shu-general-1'))[0]).toMatchObject({ defense: 4 });
  });

  it('is +1 in a city, on top of the General bonus', () => {
    const inCity = (units: Record<string, string>) => {
      const g = scenario({ phase: 'attack', cities: { F6: 'shu' }, units: { 'wei-infantry-1': 'E5', 'wei-rockets-1': 'C3', 'shu-infantry-1': 'F6', 'shu-general-9': 'L12', ...units } });
      return (submit(g, "wei", atk("wei-infantry-1", "shu-infantry-1"))[0] as unknown as { defense: number }).defense;
    };
    expect(inCity({})).toBe(5);
    expect(inCity({ 'shu-general-1': 'G7' })).toBe(6);
  });
});
