import { describe, expect, it } from 'vitest';
import { chineseWarlords } from '../../../src/domain/chinese-warlords/index.ts';
import { attempt, newGame, status, submit, legal } from '../../support/play.ts';
import { act, legalOf, position, refusal, rows, state } from './helpers.ts';
import { expectFinished } from '../../support/finished.ts';

const three = rows('S . . . . S', ' . . . . . .', '. . V . . .', ' . . S . . .');

describe('VICTORY CONDITIONS', () => {
  it('killing the opponent\'s Warlord wins', () => {
    const g = position({ phase: 'combat', seat: 'red', units: ['red-1 warlord 5,4', 'red-2 machineGun 5,4', 'red-3 bodyguards 5,4', 'blue-1 warlord 6,4'] });
    const events = act(g, 'red', { type: 'attack', stack: '5,4', target: '6,4' }).concat(act(g, 'red', { type: 'resolveAttack' }, [1])); // 21 : 9 road -> 2:1, roll 1 -> K
    expect(events.map((e) => e.type)).toEqual(['AttackDeclared', 'CombatResolved', 'UnitLost', 'PlayerDefeated', 'GameEnded']);
    expect(status(g)).toMatchObject({ stage: 'FINISHED', awaiting: [], result: { winners: ['red'], reason: "blue's Warlord was killed" } });
    expect(legalOf(g, 'red')).toEqual([]);
    expect(refusal(g, 'red', { type: 'endCombat' })).toMatch(/^The game is over/);
    expectFinished(g, { winners: ['red'], reason: "blue's Warlord was killed" }, { folded: false });
  });

  it('capturing his stronghold wins: a unit ends its move in it', () => {
    const g = position({ phase: 'movement', seat: 'red', units: ['red-1 warlord 1,4', 'red-2 thugs 10,4', 'blue-1 warlord 9,6'] });
    const events = act(g, 'red', { type: 'move', unit: 'red-2', to: '11,4' });
    // Issue 21.5: the capture's facts first, then the ending, and the log closes with GameEnded.
    expect(events.map((e) => e.type)).toEqual(['UnitMoved', 'StrongholdCaptured', 'ControlTaken', 'PlayerDefeated', 'GameEnded']);
    expect(events.at(-1)).toEqual({ type: 'GameEnded', winners: ['red'], reason: "red captured blue's stronghold" });
    expectFinished(g, undefined, { folded: false });
    expect(status(g).result).toEqual({ winners: ['red'], reason: "red captured blue's stronghold" });
  });

  it('a stronghold held by its owner\'s units cannot be entered', () => {
    const g = position({ phase: 'movement', seat: 'red', units: ['red-1 warlord 1,4', 'red-2 thugs 10,4', 'blue-1 warlord 11,4'] });
    expect(refusal(g, 'red', { type: 'move', unit: 'red-2', to: '11,4' })).toMatch(/cannot reach/);
  });

  it('with three players the loser is out, his units leave the board, and the last one left wins', () => {
    const g = position({
      map: three,
      seats: ['red', 'blue', 'green'],
      phase: 'movement',
      seat: 'red',
      units: ['red-1 warlord 1,0', 'red-2 thugs 4,0', 'red-3 thugs 3,3', 'blue-1 warlord 3,1', 'blue-2 thugs 2,2', 'green-1 warlord 0,2'],
      control: { '2,2': 'blue' },
    });
    act(g, 'red', { type: 'move', unit: 'red-2', to: '5,0' });
    expect(state(g).players.blue!.out).toBe(true);
    expect(state(g).units.some((u) => u.owner === 'blue')).toBe(false);
    expect(state(g).control['2,2']).toBeUndefined();
    expect(state(g).control['5,0']).toBe('red');
    expect(status(g)).toMatchObject({ stage: 'ACTIVE', result: null });
    act(g, 'red', { type: 'move', unit: 'red-3', to: '2,3' });
    expect(status(g).result).toEqual({ winners: ['red'], reason: "red captured green's stronghold" });
  });

  it('a player who resigns among three is out and play moves on, even in the middle of his phase', () => {
    const g = newGame(chineseWarlords, {}, ['red', 'blue', 'green'], 'resign-3');
    const first = status(g).awaiting[0]!.seat;
    submit(g, first, { type: 'resign' });
    expect(g.state.game.players[first]!.out).toBe(true);
    expect(g.state.game.units.some((u) => u.owner === first)).toBe(false);
    const next = status(g).awaiting[0]!;
    expect(next.seat).not.toBe(first);
    expect(next.kind).toBe('RECRUIT');
    expect(legal(g, first)).toEqual([]);
  });

  // seed-18 and seed-71 deal a Warlord of ability 4 with two nearby villages: setup waits for
  // that player's choice. Leaving then ends setup as the choice would have (initiative rolled).
  for (const [seed, how] of [['seed-18', 'runs out of time'], ['seed-71', 'resigns']] as const) {
    it(`a player who ${how} among three while choosing the Nearby Village is out and the first turn begins (${seed})`, () => {
      const g = newGame(chineseWarlords, { turnLimit: 3 }, ['red', 'blue', 'green'], seed);
      const choosing = status(g).awaiting;
      expect(choosing.map((p) => p.kind)).toEqual(['CHOOSE_VILLAGE']);
      const chooser = choosing[0]!.seat;
      const done = how === 'resigns' ? attempt(g, chooser, { type: 'resign' }) : attempt(g, { kind: 'system' }, { type: 'timeOut', seat: chooser });
      expect(done.ok).toBe(true);
      const after = status(g);
      expect(after.out).toEqual([chooser]);
      expect(after.stage).toBe('ACTIVE');
      expect(after.awaiting.length).toBe(1);
      expect(after.awaiting[0]!.seat).not.toBe(chooser);
      expect(legal(g, after.awaiting[0]!.seat).length).toBeGreaterThan(0);
      expect(legal(g, chooser)).toEqual([]);
    });
  }

  it('an attacker who resigns among three does not wipe out the rolled result: the defender still chooses, then retreats or loses another unit', () => {
    const g = position({
      map: three,
      seats: ['red', 'blue', 'green'],
      phase: 'combat',
      seat: 'red',
      turn: 2,
      units: ['red-1 warlord 1,1', 'red-2 bodyguards 1,1', 'red-3 machineGun 1,1', 'red-4 thugs 1,1', 'blue-1 warlord 5,0', 'blue-2 thugs 2,1', 'blue-3 thugs 2,1', 'blue-4 peasants 2,1', 'green-1 warlord 3,3'],
    });
    act(g, 'red', { type: 'attack', stack: '1,1', target: '2,1' });
    expect(act(g, 'red', { type: 'resolveAttack' }, [1])[0]).toMatchObject({ column: '3:1', result: 'K2' }); // 24 : 7
    submit(g, 'red', { type: 'resign' });
    expect(state(g).players.red!.out).toBe(true);
    // "K2 = 2 Units Killed & Stack must retreat 1 Space or loose another unit": it stands.
    expect(status(g).awaiting).toEqual([{ seat: 'blue', kind: 'ALLOCATE_DAMAGE', prompt: 'K2: choose 2 unit(s) lost in 2,1' }]);
    act(g, 'blue', { type: 'loseUnit', unit: 'blue-4' });
    act(g, 'blue', { type: 'loseUnit', unit: 'blue-3' });
    expect(status(g).awaiting).toMatchObject([{ seat: 'blue', kind: 'RETREAT' }]);
    expect(legalOf(g, 'blue')).toContainEqual({ type: 'loseUnit', unit: 'blue-2' });
    act(g, 'blue', { type: 'retreat', to: '3,1' });
    expect(state(g).units.filter((u) => u.owner === 'blue').map((u) => [u.id, u.hex])).toEqual([['blue-1', '5,0'], ['blue-2', '3,1']]);
    // Red's combat is over; blue's begins.
    expect(status(g).awaiting).toMatchObject([{ seat: 'blue', kind: 'ATTACK' }]);
  });

  it('when the resigning player was the last of the turn, the next player is asked to roll initiative', () => {
    const g = position({ map: three, seats: ['red', 'blue', 'green'], phase: 'combat', seat: 'green', order: ['red', 'blue', 'green'], units: ['red-1 warlord 0,0', 'blue-1 warlord 5,0', 'green-1 warlord 2,3'] });
    submit(g, 'green', { type: 'resign' });
    expect(status(g)).toMatchObject({ phase: 'Initiative', awaiting: [{ seat: 'red', kind: 'BEGIN_TURN' }] });
    expect(legalOf(g, 'red')).toEqual([{ type: 'beginTurn' }]);
    act(g, 'red', { type: 'beginTurn' }, [2, 5]);
    expect(state(g)).toMatchObject({ turn: 2, order: ['blue', 'red'], phase: 'recruitment', seat: 'blue' });
  });

  it('when the player asked to roll initiative resigns too, the next one in line is asked', () => {
    const four = rows('S . . . . S', ' . . . . . .', '. . V . . .', ' . . S . . S');
    const g = position({ map: four, seats: ['red', 'blue', 'green', 'yellow'], phase: 'combat', seat: 'green', order: ['red', 'blue', 'yellow', 'green'], units: ['red-1 warlord 0,0', 'blue-1 warlord 5,0', 'green-1 warlord 2,3', 'yellow-1 warlord 5,3'] });
    submit(g, 'green', { type: 'resign' });
    expect(status(g).awaiting).toEqual([{ seat: 'red', kind: 'BEGIN_TURN', prompt: expect.any(String) }]);
    submit(g, 'red', { type: 'resign' });
    expect(status(g)).toMatchObject({ stage: 'ACTIVE', phase: 'Initiative', awaiting: [{ seat: 'blue', kind: 'BEGIN_TURN' }] });
    expect(legal(g, 'blue')).toEqual([{ type: 'beginTurn' }]);
    expect(legal(g, 'red')).toEqual([]);
    submit(g, 'blue', { type: 'beginTurn' });
    expect(state(g)).toMatchObject({ turn: 2, phase: 'recruitment' });
  });

  it('an optional turn limit ends the game as a draw', () => {
    const g = newGame(chineseWarlords, { turnLimit: 2 }, ['red', 'blue'], 'limit');
    let guard = 0;
    while (status(g).stage !== 'FINISHED' && guard++ < 100) {
      const seat = status(g).awaiting[0]!.seat;
      const end = legal(g, seat).find((c) => ['endRecruitment', 'endMovement', 'endCombat'].includes(c.type))!;
      submit(g, seat, end);
    }
    expect(status(g)).toMatchObject({ stage: 'FINISHED', round: 2, result: { winners: [], reason: 'turn limit reached after turn 2 (draw)' } });
    expect(g.log.filter((r) => r.event.type === 'TurnBegan')).toHaveLength(2);
  });
});
