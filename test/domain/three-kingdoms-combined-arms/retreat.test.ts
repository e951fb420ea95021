import { describe, expect, it } from 'vitest';
import { attempt, legal, status, submit } from '../../support/play.ts';
import { scenario } from './scenario.ts';

const shuGenerals = { 'shu-general-1': 'L12', 'shu-general-2': 'K12' };
const atk = (unit: string, target: string) => ({ type: 'attack', unit, target });

describe('Retreat', () => {
  it("happens as soon as the phase's damage reaches the defense; the owner chooses back or lateral, never laterally next to an enemy", () => {
    // Shu's corner is the north-east: back is G7, G6, F7; lateral is G5 or E7 (E7 touches Wei's E6).
    const g = scenario({ phase: 'attack', units: { 'wei-shockTroops-1': 'E5', 'wei-shockTroops-2': 'E6', 'wei-rockets-1': 'D4', 'shu-infantry-1': 'F6', ...shuGenerals } });
    expect(submit(g, 'wei', atk('wei-shockTroops-1', 'shu-infantry-1')).map((e) => e.type)).toEqual(['UnitAttacked']);
    const events = submit(g, 'wei', atk('wei-shockTroops-2', 'shu-infantry-1'));
    expect(events[1]).toEqual({ type: 'RetreatForced', seat: 'shu', unit: 'shu-infantry-1', from: 'F6', options: ['G7', 'G6', 'F7', 'G5'] });
    // The game now waits for Shu, although it is Wei's turn.
    expect(status(g).awaiting).toEqual([{ seat: 'shu', kind: 'RETREAT', prompt: 'Shu Infantry 1 must retreat: choose G7 or G6 or F7 or G5' }]);
    expect(legal(g, 'wei')).toEqual([]);
    expect(legal(g, 'shu')).toEqual(['G7', 'G6', 'F7', 'G5'].map((to) => ({ type: 'retreat', unit: 'shu-infantry-1', to })));
    expect(attempt(g, 'wei', atk('wei-rockets-1', 'shu-infantry-1'))).toMatchObject({ ok: false, code: 'NOT_YOUR_TURN' });
    expect(attempt(g, 'shu', { type: 'retreat', unit: 'shu-infantry-1', to: 'E7' })).toMatchObject({ ok: false, reason: 'Shu Infantry 1 cannot retreat to E7; it may go to G7 or G6 or F7 or G5' });
    expect(attempt(g, 'shu', { type: 'retreat', unit: 'shu-infantry-1', to: 'E5' }).ok).toBe(false);
    expect(submit(g, 'shu', { type: 'retreat', unit: 'shu-infantry-1', to: 'G5' })).toEqual([
      { type: 'UnitRetreated', seat: 'shu', unit: 'shu-infantry-1', from: 'F6', to: 'G5', direction: 'lateral' },
    ]);
    expect(g.state.game.damage['shu-infantry-1']).toBe(0);
    expect(status(g).awaiting).toMatchObject([{ seat: 'wei', kind: 'ATTACK' }]);
  });

  it('goes towards the own corner whatever the corner: Wei (south-west) retreats to the south and west', () => {
    const g = scenario({ active: 'shu', phase: 'attack', units: { 'shu-shockTroops-1': 'G7', 'shu-shockTroops-2': 'G6', 'shu-rockets-1': 'I9', 'wei-infantry-1': 'F6', 'wei-general-1': 'A1', 'shu-general-1': 'L12' } });
    submit(g, 'shu', atk('shu-shockTroops-1', 'wei-infantry-1'));
    // Back: E5, E6, F5; lateral: E7 or G5 (G5 touches Shu's G6).
    expect(submit(g, 'shu', atk('shu-shockTroops-2', 'wei-infantry-1'))[1]).toMatchObject({ type: 'RetreatForced', options: ['E5', 'E6', 'F5', 'E7'] });
  });

  it('goes towards the third and fourth corners too: Wu (south-east) and Jin (north-west); any other player is an enemy', () => {
    const four = ['wei', 'shu', 'wu', 'jin'];
    const generals = { 'wei-general-1': 'A1', 'shu-general-1': 'L12', 'wu-general-1': 'L1', 'jin-general-1': 'A12' };
    const forced = (active: string, units: Record<string, string>, attackers: [string, string]) => {
      const g = scenario({ players: four, active, phase: 'attack', units: { ...generals, ...units } });
      const [first, second] = attackers;
      const target = Object.keys(units).find((id) => !id.startsWith(active))!;
      submit(g, active, atk(first, target));
      return submit(g, active, atk(second, target))[1];
    };
    // Wu at F6: back G5, G6, F5; lateral G7 (touches Wei's F7) or E5.
    expect(forced('wei', { 'wu-infantry-1': 'F6', 'wei-shockTroops-1': 'E7', 'wei-shockTroops-2': 'F7' }, ['wei-shockTroops-1', 'wei-shockTroops-2'])).toMatchObject({
      type: 'RetreatForced', options: ['G5', 'G6', 'F5', 'E5'],
    });
    // A Jin unit at D4 is Wu's enemy as well: E5 touches it.
    expect(forced('wei', { 'wu-infantry-1': 'F6', 'wei-shockTroops-1': 'E7', 'wei-shockTroops-2': 'F7', 'jin-infantry-1': 'D4' }, ['wei-shockTroops-1', 'wei-shockTroops-2'])).toMatchObject({
      type: 'RetreatForced', options: ['G5', 'G6', 'F5'],
    });
    // Jin at F6: back E7, E6, F7; lateral E5 or G7 (touches Wu's G6).
    expect(forced('wu', { 'jin-infantry-1': 'F6', 'wu-shockTroops-1': 'G5', 'wu-shockTroops-2': 'G6' }, ['wu-shockTroops-1', 'wu-shockTroops-2'])).toMatchObject({
      type: 'RetreatForced', options: ['E7', 'E6', 'F7', 'E5'],
    });
  });

  it('is a state: "as soon as a unit takes damage in a turn equal to its Defense" it retreats, also when its defense drops because its General retreated', () => {
    // Shu Infantry at F6 has taken 4 this phase; next to its General at G7 its defense is 5.
    const g = scenario({
      phase: 'attack',
      units: { 'wei-archers-1': 'E8', 'wei-rockets-1': 'D4', 'shu-infantry-1': 'F6', 'shu-general-1': 'G7', 'shu-general-2': 'L12' },
      damage: { 'shu-infantry-1': 4, 'shu-general-1': 2 },
    });
    expect(submit(g, 'wei', atk('wei-archers-1', 'shu-general-1'))[1]).toMatchObject({ type: 'RetreatForced', unit: 'shu-general-1', options: ['H8', 'H7', 'G8', 'H6'] });
    // The General leaves: the Infantry's defense falls to 4, its damage: it retreats at once.
    expect(submit(g, 'shu', { type: 'retreat', unit: 'shu-general-1', to: 'H8' })).toEqual([
      { type: 'UnitRetreated', seat: 'shu', unit: 'shu-general-1', from: 'G7', to: 'H8', direction: 'back' },
      { type: 'RetreatForced', seat: 'shu', unit: 'shu-infantry-1', from: 'F6', options: ['G7', 'G6', 'F7', 'G5'] },
    ]);
    expect(status(g).awaiting).toMatchObject([{ seat: 'shu', kind: 'RETREAT' }]);
    submit(g, 'shu', { type: 'retreat', unit: 'shu-infantry-1', to: 'G6' });
    expect(g.state.game.damage['shu-infantry-1']).toBe(0);
    expect(status(g).awaiting).toMatchObject([{ seat: 'wei', kind: 'ATTACK' }]);
  });

  it('is a state: a unit whose General is destroyed retreats at once when its damage reaches its lowered defense', () => {
    // The General was already driven back once this phase: a second forced retreat destroys it (Double Whammy).
    const g = scenario({
      phase: 'attack',
      units: { 'wei-archers-1': 'E8', 'shu-infantry-1': 'F6', 'shu-general-1': 'G7', 'shu-general-2': 'L12' },
      damage: { 'shu-infantry-1': 4, 'shu-general-1': 2 },
      retreated: ['shu-general-1'],
    });
    expect(submit(g, 'wei', atk('wei-archers-1', 'shu-general-1'))).toEqual([
      { type: 'UnitAttacked', seat: 'wei', unit: 'wei-archers-1', target: 'shu-general-1', damage: 1, damageThisPhase: 3, defense: 3 },
      { type: 'UnitDestroyed', seat: 'shu', unit: 'shu-general-1', kind: 'general', square: 'G7', reason: 'DOUBLE_WHAMMY' },
      { type: 'RetreatForced', seat: 'shu', unit: 'shu-infantry-1', from: 'F6', options: ['G7', 'G6', 'F7', 'G5'] },
    ]);
  });

  it('is a state: a drop that forces a unit back a second time in the phase destroys it (Double Whammy)', () => {
    const g = scenario({
      phase: 'attack',
      units: { 'wei-archers-1': 'E8', 'shu-infantry-1': 'F6', 'shu-general-1': 'G7', 'shu-general-2': 'L12' },
      damage: { 'shu-infantry-1': 4, 'shu-general-1': 2 },
      retreated: ['shu-infantry-1'],
    });
    submit(g, 'wei', atk('wei-archers-1', 'shu-general-1'));
    expect(submit(g, 'shu', { type: 'retreat', unit: 'shu-general-1', to: 'H8' })[1]).toEqual({
      type: 'UnitDestroyed', seat: 'shu', unit: 'shu-infantry-1', kind: 'infantry', square: 'F6', reason: 'DOUBLE_WHAMMY',
    });
  });

  it('is a state: when one drop forces several units back, they retreat one after another, each from the squares open at its turn', () => {
    const g = scenario({
      phase: 'attack',
      units: { 'wei-archers-1': 'E8', 'shu-infantry-1': 'F6', 'shu-infantry-2': 'G6', 'shu-general-1': 'G7', 'shu-general-2': 'L12' },
      damage: { 'shu-infantry-1': 4, 'shu-infantry-2': 4, 'shu-general-1': 2 },
    });
    submit(g, 'wei', atk('wei-archers-1', 'shu-general-1'));
    expect(submit(g, 'shu', { type: 'retreat', unit: 'shu-general-1', to: 'H8' })[1]).toEqual({
      type: 'RetreatForced', seat: 'shu', unit: 'shu-infantry-1', from: 'F6', options: ['G7', 'F7', 'G5'],
    });
    expect(submit(g, 'shu', { type: 'retreat', unit: 'shu-infantry-1', to: 'F7' })).toEqual([
      { type: 'UnitRetreated', seat: 'shu', unit: 'shu-infantry-1', from: 'F6', to: 'F7', direction: 'back' },
      { type: 'RetreatForced', seat: 'shu', unit: 'shu-infantry-2', from: 'G6', options: ['H7', 'H6', 'G7', 'H5'] },
    ]);
  });

  it('is taken automatically when only one square is open', () => {
    // Shu at L6: back L7, lateral K7 (touches Wei's K6); everything else is off the board.
    const g = scenario({ phase: 'attack', units: { 'wei-infantry-1': 'K6', 'wei-infantry-2': 'K5', 'wei-rockets-1': 'I4', 'shu-horseArchers-1': 'L6', ...shuGenerals } });
    submit(g, 'wei', atk('wei-infantry-1', 'shu-horseArchers-1'));
    expect(submit(g, 'wei', atk('wei-infantry-2', 'shu-horseArchers-1'))).toEqual([
      { type: 'UnitAttacked', seat: 'wei', unit: 'wei-infantry-2', target: 'shu-horseArchers-1', damage: 1, damageThisPhase: 2, defense: 2 },
      { type: 'RetreatForced', seat: 'shu', unit: 'shu-horseArchers-1', from: 'L6', options: ['L7'] },
      { type: 'UnitRetreated', seat: 'shu', unit: 'shu-horseArchers-1', from: 'L6', to: 'L7', direction: 'back' },
    ]);
    expect(status(g).awaiting).toMatchObject([{ seat: 'wei', kind: 'ATTACK' }]);
  });

  it('into a city takes control of it', () => {
    const g = scenario({ phase: 'attack', cities: { L7: 'wei' }, units: { 'wei-infantry-1': 'K6', 'wei-infantry-2': 'K5', 'wei-rockets-1': 'I4', 'shu-horseArchers-1': 'L6', ...shuGenerals } });
    submit(g, 'wei', atk('wei-infantry-1', 'shu-horseArchers-1'));
    expect(submit(g, 'wei', atk('wei-infantry-2', 'shu-horseArchers-1'))).toContainEqual({ type: 'CityOccupied', square: 'L7', seat: 'shu', previous: 'wei' });
  });

  it('with nowhere to go (units, mountains, enemies beside lateral squares) destroys the unit', () => {
    const blockers: { units: Record<string, string>; mountains?: string[] }[] = [{ units: { 'shu-infantry-1': 'L7' } }, { units: {}, mountains: ['L7'] }];
    for (const blocker of blockers) {
      const g = scenario({
        phase: 'attack',
        mountains: blocker.mountains,
        units: { 'wei-infantry-1': 'K6', 'wei-infantry-2': 'K5', 'wei-rockets-1': 'I4', 'shu-horseArchers-1': 'L6', ...shuGenerals, ...blocker.units },
      });
      submit(g, 'wei', atk('wei-infantry-1', 'shu-horseArchers-1'));
      expect(submit(g, 'wei', atk('wei-infantry-2', 'shu-horseArchers-1'))[1]).toEqual({
        type: 'UnitDestroyed', seat: 'shu', unit: 'shu-horseArchers-1', kind: 'horseArchers', square: 'L6', reason: 'NO_RETREAT',
      });
      expect(g.state.game.units.map((u) => u.id)).not.toContain('shu-horseArchers-1');
    }
  });

  it('off the board destroys the unit', () => {
    const g = scenario({ phase: 'attack', units: { 'wei-infantry-1': 'K11', 'wei-infantry-2': 'K12', 'wei-rockets-1': 'I9', 'shu-horseArchers-1': 'L12', 'shu-general-1': 'H12', 'shu-general-2': 'G12' } });
    submit(g, 'wei', atk('wei-infantry-1', 'shu-horseArchers-1'));
    expect(submit(g, 'wei', atk('wei-infantry-2', 'shu-horseArchers-1'))[1]).toMatchObject({ type: 'UnitDestroyed', unit: 'shu-horseArchers-1', reason: 'OFF_BOARD' });
  });
});

describe('DOUBLE WHAMMY RULE', () => {
  it('destroys a unit forced to retreat a second time in the same phase; its counter restarted after the first', () => {
    const g = scenario({
      phase: 'attack',
      units: { 'wei-infantry-1': 'E5', 'wei-infantry-2': 'E6', 'wei-archers-1': 'E8', 'wei-archers-2': 'E9', 'wei-rockets-1': 'A1', 'shu-horseArchers-1': 'F6', ...shuGenerals },
    });
    submit(g, 'wei', atk('wei-infantry-1', 'shu-horseArchers-1'));
    submit(g, 'wei', atk('wei-infantry-2', 'shu-horseArchers-1'));
    submit(g, 'shu', { type: 'retreat', unit: 'shu-horseArchers-1', to: 'G7' });
    expect(submit(g, 'wei', atk('wei-archers-1', 'shu-horseArchers-1'))).toEqual([
      { type: 'UnitAttacked', seat: 'wei', unit: 'wei-archers-1', target: 'shu-horseArchers-1', damage: 1, damageThisPhase: 1, defense: 2 },
    ]);
    expect(submit(g, 'wei', atk('wei-archers-2', 'shu-horseArchers-1')).slice(0, 2)).toEqual([
      { type: 'UnitAttacked', seat: 'wei', unit: 'wei-archers-2', target: 'shu-horseArchers-1', damage: 1, damageThisPhase: 2, defense: 2 },
      { type: 'UnitDestroyed', seat: 'shu', unit: 'shu-horseArchers-1', kind: 'horseArchers', square: 'G7', reason: 'DOUBLE_WHAMMY' },
    ]);
  });

  it('only counts retreats of the same phase: the next attack phase starts afresh', () => {
    const g = scenario({
      phase: 'attack',
      units: { 'wei-infantry-1': 'E5', 'wei-infantry-2': 'E6', 'wei-archers-1': 'D8', 'shu-horseArchers-1': 'F6', 'shu-archers-1': 'I9', ...shuGenerals },
    });
    submit(g, 'wei', atk('wei-infantry-1', 'shu-horseArchers-1'));
    submit(g, 'wei', atk('wei-infantry-2', 'shu-horseArchers-1'));
    submit(g, 'shu', { type: 'retreat', unit: 'shu-horseArchers-1', to: 'F7' });
    submit(g, 'wei', { type: 'endTurn' });
    expect(g.state.game.retreated).toEqual([]);
    submit(g, 'shu', { type: 'endMovement' });
    submit(g, 'shu', { type: 'endTurn' });
    submit(g, 'wei', { type: 'endMovement' });
    submit(g, 'wei', atk('wei-infantry-2', 'shu-horseArchers-1'));
    const events = submit(g, 'wei', atk('wei-archers-1', 'shu-horseArchers-1'));
    expect(events[1]).toMatchObject({ type: 'RetreatForced', unit: 'shu-horseArchers-1' });
  });
});
