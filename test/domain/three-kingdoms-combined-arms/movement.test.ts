import { describe, expect, it } from 'vitest';
import { attempt, legal, status, submit } from '../../support/play.ts';
import { scenario } from './scenario.ts';

const far = { 'shu-general-1': 'L12', 'shu-general-2': 'K12' };
/** A Wei unit far away that could still move, so that the Move Phase does not end by itself after one move. */
const spare = { 'wei-general-2': 'A12' };

function destinationsOf(g: ReturnType<typeof scenario>, unit: string): string[] {
  return legal(g, 'wei')
    .filter((c) => c.type === 'move' && c.unit === unit)
    .map((c) => c.to as string)
    .sort();
}

describe('MOVE PHASE', () => {
  it('moves a unit orthogonally or diagonally up to its Move, and no further', () => {
    const g = scenario({ units: { 'wei-infantry-1': 'C3', ...far, ...spare } });
    expect(destinationsOf(g, 'wei-infantry-1')).toHaveLength(24); // the 5x5 square around C3 less C3
    expect(attempt(g, 'wei', { type: 'move', unit: 'wei-infantry-1', to: 'F3' })).toMatchObject({ ok: false, reason: 'Wei Infantry 1 has 2 moves; F3 needs 3' });
    expect(submit(g, 'wei', { type: 'move', unit: 'wei-infantry-1', to: 'E5' })).toEqual([
      { type: 'UnitMoved', seat: 'wei', unit: 'wei-infantry-1', from: 'C3', to: 'E5', path: ['D4', 'E5'] },
    ]);
  });

  it('moves each unit at most once per move phase, and any number of units', () => {
    const g = scenario({ units: { 'wei-infantry-1': 'C3', 'wei-infantry-2': 'C5', ...far } });
    submit(g, 'wei', { type: 'move', unit: 'wei-infantry-1', to: 'D3' });
    expect(attempt(g, 'wei', { type: 'move', unit: 'wei-infantry-1', to: 'E3' })).toMatchObject({ ok: false, reason: 'Wei Infantry 1 has already moved this turn' });
    expect(destinationsOf(g, 'wei-infantry-1')).toEqual([]);
    submit(g, 'wei', { type: 'move', unit: 'wei-infantry-2', to: 'D6' });
  });

  it('never moves through other units, friend or foe, nor onto one', () => {
    const g = scenario({ units: { 'wei-armoredCavalry-1': 'A1', 'wei-infantry-1': 'A2', 'shu-infantry-1': 'B2', 'wei-infantry-2': 'B1', ...far } });
    expect(destinationsOf(g, 'wei-armoredCavalry-1')).toEqual([]);
    expect(attempt(g, 'wei', { type: 'move', unit: 'wei-armoredCavalry-1', to: 'C3' })).toMatchObject({ ok: false, reason: expect.stringContaining('cannot reach C3') });
    expect(attempt(g, 'wei', { type: 'move', unit: 'wei-armoredCavalry-1', to: 'B2' })).toMatchObject({ ok: false, reason: 'B2 is occupied by Shu Infantry 1' });
    // A wall of units makes the way longer: around it, the infantry's 2 moves no longer reach.
    const h = scenario({ units: { 'wei-infantry-1': 'C3', 'shu-infantry-1': 'D2', 'shu-infantry-2': 'D3', 'shu-infantry-3': 'D4', ...far } });
    expect(attempt(h, 'wei', { type: 'move', unit: 'wei-infantry-1', to: 'E3' })).toMatchObject({ ok: false, reason: 'Wei Infantry 1 has 2 moves; E3 needs 4' });
  });

  it('may step diagonally between two units or two mountains that touch at a corner (ruling: that is not moving through them)', () => {
    const g = scenario({ units: { 'wei-infantry-1': 'C3', 'shu-infantry-1': 'C4', 'shu-infantry-2': 'D3', ...far, ...spare } });
    expect(submit(g, 'wei', { type: 'move', unit: 'wei-infantry-1', to: 'D4' })).toEqual([
      { type: 'UnitMoved', seat: 'wei', unit: 'wei-infantry-1', from: 'C3', to: 'D4', path: ['D4'] },
    ]);
    const h = scenario({ units: { 'wei-infantry-1': 'C3', ...far }, mountains: ['C4', 'D3'] });
    expect(submit(h, 'wei', { type: 'move', unit: 'wei-infantry-1', to: 'E5' })[0]).toMatchObject({ path: ['D4', 'E5'] });
  });

  it('never moves into or through a mountain', () => {
    const g = scenario({ units: { 'wei-infantry-1': 'C3', ...far }, mountains: ['D2', 'D3', 'D4', 'B2'] });
    expect(attempt(g, 'wei', { type: 'move', unit: 'wei-infantry-1', to: 'B2' })).toMatchObject({ ok: false, reason: expect.stringContaining('mountain') });
    expect(attempt(g, 'wei', { type: 'move', unit: 'wei-infantry-1', to: 'E3' })).toMatchObject({ ok: false, reason: 'Wei Infantry 1 has 2 moves; E3 needs 4' });
    expect(destinationsOf(g, 'wei-infantry-1')).not.toContain('D3');
  });

  it('stops a unit when it enters a forest; it may leave a forest it starts in', () => {
    const g = scenario({ units: { 'wei-armoredCavalry-1': 'A1', 'wei-armoredCavalry-2': 'E5', ...far }, forests: ['A2', 'B1', 'B2', 'E5'] });
    expect(destinationsOf(g, 'wei-armoredCavalry-1')).toEqual(['A2', 'B1', 'B2']);
    expect(attempt(g, 'wei', { type: 'move', unit: 'wei-armoredCavalry-1', to: 'C3' })).toMatchObject({ ok: false, reason: expect.stringContaining('cannot reach C3') });
    submit(g, 'wei', { type: 'move', unit: 'wei-armoredCavalry-1', to: 'B2' });
    const [moved] = submit(g, 'wei', { type: 'move', unit: 'wei-armoredCavalry-2', to: 'I5' });
    expect(moved).toMatchObject({ type: 'UnitMoved', from: 'E5', to: 'I5' });
    expect(moved!.path).toHaveLength(4);
  });

  it('refuses moving a unit that is not yours', () => {
    const g = scenario({ units: { 'wei-infantry-1': 'C3', ...far } });
    expect(attempt(g, 'wei', { type: 'move', unit: 'shu-general-1', to: 'L11' })).toMatchObject({ ok: false, reason: 'Shu General 1 is not yours' });
  });
});

describe('TERRAIN: cities', () => {
  it('are controlled by the last player to occupy them; leaving does not give them up', () => {
    const g = scenario({ units: { 'wei-infantry-1': 'C3', 'shu-infantry-1': 'F6', ...far, ...spare }, cities: { D4: null, J9: 'shu' } });
    expect(submit(g, 'wei', { type: 'move', unit: 'wei-infantry-1', to: 'D4' })).toContainEqual({ type: 'CityOccupied', square: 'D4', seat: 'wei', previous: null });
    submit(g, 'wei', { type: 'endMovement' }); // nothing to attack: the turn ends
    submit(g, 'shu', { type: 'move', unit: 'shu-infantry-1', to: 'F8' });
    submit(g, 'shu', { type: 'endMovement' });
    submit(g, 'wei', { type: 'move', unit: 'wei-infantry-1', to: 'B2' });
    expect(g.state.game.cities.D4).toBe('wei');
    submit(g, 'wei', { type: 'endMovement' });
    submit(g, 'shu', { type: 'move', unit: 'shu-infantry-1', to: 'E6' });
    submit(g, 'shu', { type: 'endMovement' });
    expect(submit(g, 'wei', { type: 'endMovement' })).toBeDefined();
    expect(submit(g, 'shu', { type: 'move', unit: 'shu-infantry-1', to: 'D4' })).toContainEqual({ type: 'CityOccupied', square: 'D4', seat: 'shu', previous: 'wei' });
  });
});

describe('TERRAIN: cities passed through', () => {
  it('are not occupied by a unit that only passes through them (ruling: occupying is ending a move, a placement or a retreat there)', () => {
    const g = scenario({ units: { 'wei-infantry-1': 'C3', ...far, ...spare }, cities: { D4: 'shu' } });
    // C3 to E5 in two steps can only go through D4.
    expect(submit(g, 'wei', { type: 'move', unit: 'wei-infantry-1', to: 'E5' })).toEqual([
      { type: 'UnitMoved', seat: 'wei', unit: 'wei-infantry-1', from: 'C3', to: 'E5', path: ['D4', 'E5'] },
    ]);
    expect(g.state.game.cities.D4).toBe('shu');
  });
});

describe('TURN SEQUENCE', () => {
  it('has a move phase then an attack phase, then the next player in seat order', () => {
    const g = scenario({ players: ['wei', 'shu', 'wu'], units: { 'wei-infantry-1': 'C3', 'shu-infantry-1': 'C5', 'wu-general-1': 'L1', 'shu-general-1': 'L12', 'wei-general-1': 'A1' } });
    expect(status(g)).toMatchObject({ phase: 'Wei Move Phase', round: 1, awaiting: [{ seat: 'wei', kind: 'MOVE' }] });
    expect(attempt(g, 'wei', { type: 'attack', unit: 'wei-infantry-1', target: 'shu-infantry-1' })).toMatchObject({ ok: false, reason: 'It is the Move Phase: end movement before attacking' });
    submit(g, 'wei', { type: 'move', unit: 'wei-infantry-1', to: 'C4' });
    submit(g, 'wei', { type: 'endMovement' });
    expect(status(g)).toMatchObject({ phase: 'Wei Attack Phase', awaiting: [{ seat: 'wei', kind: 'ATTACK' }] });
    expect(attempt(g, 'wei', { type: 'move', unit: 'wei-general-1', to: 'A2' })).toMatchObject({ ok: false, reason: expect.stringContaining('movement is over') });
    expect(legal(g, 'wei')).toEqual([{ type: 'attack', unit: 'wei-infantry-1', target: 'shu-infantry-1' }, { type: 'endTurn' }]);
    expect(legal(g, 'shu')).toEqual([]);
    submit(g, 'wei', { type: 'endTurn' });
    expect(status(g)).toMatchObject({ phase: 'Shu Move Phase', round: 1 });
    submit(g, 'shu', { type: 'endMovement' });
    // Shu's infantry could attack: the attack phase waits for Shu.
    submit(g, 'shu', { type: 'endTurn' });
    // Wu has nothing in range: its attack phase ends by itself (the only choice).
    expect(submit(g, 'wu', { type: 'endMovement' }).map((e) => e.type)).toEqual(['MovementEnded', 'TurnEnded', 'TurnStarted']);
    expect(status(g)).toMatchObject({ phase: 'Wei Move Phase', round: 2 });
  });

  it('ends a Move Phase by itself when none of the player\'s units can move: its only option (ruling)', () => {
    // Wei's Generals at A1 and A2 are walled in by mountains and Shu's Infantry at B3, which Wei can attack.
    const g = scenario({
      active: 'shu',
      phase: 'attack',
      attacked: ['shu-infantry-1'],
      mountains: ['A3', 'B1', 'B2'],
      units: { 'wei-general-1': 'A1', 'wei-general-2': 'A2', 'shu-infantry-1': 'B3', 'shu-general-1': 'K12', 'shu-general-2': 'L12' },
    });
    expect(submit(g, 'shu', { type: 'endTurn' })).toEqual([
      { type: 'TurnEnded', seat: 'shu', round: 1 },
      { type: 'TurnStarted', seat: 'wei', round: 2 },
      { type: 'MovementEnded', seat: 'wei' },
    ]);
    expect(status(g).awaiting).toMatchObject([{ seat: 'wei', kind: 'ATTACK' }]);
  });

  it('ends the Move Phase by itself once the last unit that could move has moved', () => {
    const g = scenario({ units: { 'wei-infantry-1': 'C3', 'wei-infantry-2': 'C5', 'shu-infantry-1': 'D8', ...far } });
    submit(g, 'wei', { type: 'move', unit: 'wei-infantry-1', to: 'D3' });
    expect(status(g).awaiting).toMatchObject([{ seat: 'wei', kind: 'MOVE' }]);
    // Infantry 2 moves next to Shu's Infantry: ending the phase is all that is left, then Wei may attack.
    expect(submit(g, 'wei', { type: 'move', unit: 'wei-infantry-2', to: 'D7' })).toEqual([
      { type: 'UnitMoved', seat: 'wei', unit: 'wei-infantry-2', from: 'C5', to: 'D7', path: ['C6', 'D7'] },
      { type: 'MovementEnded', seat: 'wei' },
    ]);
    expect(status(g).awaiting).toMatchObject([{ seat: 'wei', kind: 'ATTACK' }]);
  });

  it('ends a whole turn by itself when the player can neither move nor attack', () => {
    const g = scenario({
      active: 'shu',
      phase: 'attack',
      mountains: ['A3', 'B1', 'B2', 'B3'],
      units: { 'wei-general-1': 'A1', 'wei-general-2': 'A2', 'shu-general-1': 'K12', 'shu-general-2': 'L12' },
    });
    expect(submit(g, 'shu', { type: 'endTurn' }).map((e) => e.type)).toEqual(['TurnEnded', 'TurnStarted', 'MovementEnded', 'TurnEnded', 'TurnStarted']);
    expect(status(g)).toMatchObject({ phase: 'Shu Move Phase', round: 2 });
  });

  it('ends the game as a draw when no player can ever move or attack again (ruling)', () => {
    const g = scenario({
      active: 'shu',
      phase: 'attack',
      mountains: ['A3', 'B1', 'B2', 'B3', 'J11', 'J12', 'K11', 'L11'],
      units: { 'wei-general-1': 'A1', 'wei-general-2': 'A2', 'shu-general-1': 'K12', 'shu-general-2': 'L12' },
    });
    expect(submit(g, 'shu', { type: 'endTurn' })).toEqual([
      { type: 'TurnEnded', seat: 'shu', round: 1 },
      { type: 'TurnStarted', seat: 'wei', round: 2 },
      { type: 'GameEnded', winners: [], reason: 'no player can move or attack (draw)' },
    ]);
    // Unless a player holds every city: then they win at the end of their turn.
    const h = scenario({
      active: 'shu',
      phase: 'attack',
      mountains: ['A3', 'B1', 'B2', 'B3', 'J11', 'J12', 'K11', 'L11'],
      cities: { A1: 'wei' },
      units: { 'wei-general-1': 'A1', 'wei-general-2': 'A2', 'shu-general-1': 'K12', 'shu-general-2': 'L12' },
    });
    expect(submit(h, 'shu', { type: 'endTurn' }).at(-1)).toEqual({ type: 'GameEnded', winners: ['wei'], reason: 'Wei controls the only city' });
  });

  it('uses no dice once the terrain is down', () => {
    const g = scenario({ units: { 'wei-infantry-1': 'C3', 'shu-infantry-1': 'C5', 'shu-general-1': 'L12', ...spare } });
    submit(g, 'wei', { type: 'move', unit: 'wei-infantry-1', to: 'C4' });
    submit(g, 'wei', { type: 'endMovement' });
    submit(g, 'wei', { type: 'attack', unit: 'wei-infantry-1', target: 'shu-infantry-1' });
    expect(g.state.draws).toBe(0);
  });
});
