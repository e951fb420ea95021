import { describe, expect, it } from 'vitest';
import { attempt, legal, newGame, status, submit } from '../../support/play.ts';
import { threeKingdoms } from '../../../src/domain/three-kingdoms-combined-arms/index.ts';
import { scenario } from './scenario.ts';

const atk = (unit: string, target: string) => ({ type: 'attack', unit, target });
const TEN = ['B8', 'C10', 'D4', 'E11', 'F2', 'G6', 'H9', 'J3', 'K8', 'L1'];

describe('VICTORY: all enemy Generals destroyed', () => {
  it('ends a two-player game at once when the last enemy General is destroyed', () => {
    const g = scenario({
      phase: 'attack',
      units: { 'wei-infantry-1': 'K11', 'wei-infantry-2': 'K12', 'wei-infantry-3': 'L11', 'wei-rockets-1': 'I9', 'shu-general-1': 'L12', 'shu-infantry-1': 'G8' },
    });
    submit(g, 'wei', atk('wei-infantry-1', 'shu-general-1'));
    submit(g, 'wei', atk('wei-infantry-2', 'shu-general-1'));
    expect(submit(g, 'wei', atk('wei-infantry-3', 'shu-general-1'))).toEqual([
      { type: 'UnitAttacked', seat: 'wei', unit: 'wei-infantry-3', target: 'shu-general-1', damage: 1, damageThisPhase: 3, defense: 3 },
      { type: 'UnitDestroyed', seat: 'shu', unit: 'shu-general-1', kind: 'general', square: 'L12', reason: 'OFF_BOARD' },
      { type: 'PlayerOut', seat: 'shu', reason: 'Shu has lost both Generals', cause: 'generals' },
      { type: 'GameEnded', winners: ['wei'], reason: 'every enemy General destroyed' },
    ]);
    expect(status(g)).toMatchObject({ stage: 'FINISHED', awaiting: [], result: { winners: ['wei'] } });
    expect(legal(g, 'wei')).toEqual([]);
    expect(attempt(g, 'wei', atk('wei-rockets-1', 'shu-infantry-1'))).toMatchObject({ ok: false, code: 'GAME_OVER' });
  });

  it('puts a player without Generals out of a three-player game: their units leave, play goes on without them', () => {
    const g = scenario({
      players: ['wei', 'shu', 'wu'],
      phase: 'attack',
      cities: { H3: 'wu' },
      units: { 'wei-infantry-1': 'K1', 'wei-infantry-2': 'K2', 'wei-infantry-3': 'L2', 'wei-rockets-1': 'H5', 'wu-general-1': 'L1', 'wu-infantry-1': 'H3', 'shu-general-1': 'L12' },
    });
    submit(g, 'wei', atk('wei-infantry-1', 'wu-general-1'));
    submit(g, 'wei', atk('wei-infantry-2', 'wu-general-1'));
    const events = submit(g, 'wei', atk('wei-infantry-3', 'wu-general-1'));
    // Nothing left for the rockets to attack: the turn ends by itself.
    expect(events.map((e) => e.type)).toEqual(['UnitAttacked', 'UnitDestroyed', 'PlayerOut', 'TurnEnded', 'TurnStarted']);
    expect(g.state.game.units.some((u) => u.seat === 'wu')).toBe(false);
    expect(g.state.game.cities.H3).toBeNull();
    expect(status(g)).toMatchObject({ stage: 'ACTIVE', phase: 'Shu Move Phase' });
    // After Shu, Wei again: Wu is skipped.
    submit(g, 'shu', { type: 'endMovement' });
    expect(status(g)).toMatchObject({ phase: 'Wei Move Phase', round: 2 });
  });

  it('gives the game to the last player left with Generals', () => {
    const g = scenario({
      players: ['wei', 'shu', 'wu'],
      out: ['wu'],
      phase: 'attack',
      units: { 'wei-infantry-1': 'K11', 'wei-infantry-2': 'K12', 'wei-infantry-3': 'L11', 'shu-general-2': 'L12' },
    });
    submit(g, 'wei', atk('wei-infantry-1', 'shu-general-2'));
    submit(g, 'wei', atk('wei-infantry-2', 'shu-general-2'));
    expect(submit(g, 'wei', atk('wei-infantry-3', 'shu-general-2')).at(-1)).toEqual({ type: 'GameEnded', winners: ['wei'], reason: 'every enemy General destroyed' });
  });

  // Issue 21.7: the reason a player sees says what happened to every loser.
  it('a win by conquest over one loser while the other resigned does not say every enemy General was destroyed', () => {
    const g = scenario({ players: ['wei', 'shu', 'wu'], phase: 'attack', units: { 'wei-infantry-1': 'K11', 'wei-infantry-2': 'K12', 'wei-infantry-3': 'L11', 'shu-general-2': 'L12', 'wu-general-1': 'A12' } });
    submit(g, 'wu', { type: 'resign' });
    expect(g.state.game.out).toEqual(['wu']);
    submit(g, 'wei', atk('wei-infantry-1', 'shu-general-2'));
    submit(g, 'wei', atk('wei-infantry-2', 'shu-general-2'));
    expect(submit(g, 'wei', atk('wei-infantry-3', 'shu-general-2')).at(-1)).toEqual({ type: 'GameEnded', winners: ['wei'], reason: 'every other player is out' });
  });
});

// RULINGS: "A player who has lost both Generals is out; their remaining units leave the
// board." A resigning player leaves the same way, also when that ends the game (issue 21.4).
describe('resignation that ends the game', () => {
  it('a two-player resigner is marked out and its units leave the board; the other wins', () => {
    const g = scenario({ phase: 'move', units: { 'wei-general-1': 'B2', 'wei-infantry-1': 'C3', 'shu-general-1': 'K11' } });
    const events = submit(g, 'wei', { type: 'resign' });
    expect(events.map((e) => e.type)).toEqual(['PlayerResigned', 'PlayerOut', 'GameEnded']);
    expect(events.at(-1)).toEqual({ type: 'GameEnded', winners: ['shu'], reason: 'Wei resigned' });
    const view = threeKingdoms.view(g.state.game, null) as any;
    expect(view.players.find((p: any) => p.seat === 'wei').out).toBe(true);
    expect(view.units.filter((u: any) => u.seat === 'wei')).toEqual([]);
    expect(view.activeSeat).toBeNull();
  });

  it('the loser whose resignation ends a game of three is marked out with its units removed too', () => {
    const g = scenario({ players: ['wei', 'shu', 'wu'], phase: 'move', units: { 'wei-general-1': 'B2', 'shu-general-1': 'K11', 'shu-infantry-1': 'K10', 'wu-general-1': 'A12' } });
    submit(g, 'wu', { type: 'resign' });
    const events = submit(g, 'shu', { type: 'resign' });
    expect(events.at(-1)).toEqual({ type: 'GameEnded', winners: ['wei'], reason: 'Shu resigned' });
    expect(g.state.game.out).toEqual(['wu', 'shu']);
    expect(g.state.game.units.map((u) => u.seat)).toEqual(['wei']);
  });
});

describe('VICTORY: all ten cities', () => {
  it('wins at the end of the turn of the player who controls every city, not before', () => {
    const cities = Object.fromEntries(TEN.map((c) => [c, c === 'D4' ? 'shu' : 'wei']));
    const g = scenario({ cities, units: { 'wei-infantry-1': 'C3', 'wei-general-1': 'A1', 'shu-general-1': 'L12' } });
    submit(g, 'wei', { type: 'move', unit: 'wei-infantry-1', to: 'D4' });
    expect(Object.values(g.state.game.cities).every((c) => c === 'wei')).toBe(true);
    expect(status(g).stage).toBe('ACTIVE');
    expect(submit(g, 'wei', { type: 'endMovement' }).slice(-2)).toEqual([
      { type: 'TurnEnded', seat: 'wei', round: 1 },
      { type: 'GameEnded', winners: ['wei'], reason: 'Wei controls all 10 cities' },
    ]);
    expect(status(g)).toMatchObject({ stage: 'FINISHED', result: { winners: ['wei'], reason: 'Wei controls all 10 cities' } });
  });

  it("counts only at the end of the controlling player's own turns, not at the end of another player's", () => {
    const cities = Object.fromEntries(TEN.map((c) => [c, 'wei']));
    const g = scenario({ active: 'shu', cities, units: { 'wei-general-1': 'A1', 'shu-general-1': 'L12' } });
    expect(submit(g, 'shu', { type: 'endMovement' }).map((e) => e.type)).toEqual(['MovementEnded', 'TurnEnded', 'TurnStarted']);
    expect(status(g)).toMatchObject({ stage: 'ACTIVE', phase: 'Wei Move Phase' });
    expect(submit(g, 'wei', { type: 'endMovement' }).at(-1)).toEqual({ type: 'GameEnded', winners: ['wei'], reason: 'Wei controls all 10 cities' });
  });

  it('needs every city: nine are not enough', () => {
    const cities = Object.fromEntries(TEN.map((c) => [c, c === 'D4' ? null : 'wei']));
    const g = scenario({ cities, units: { 'wei-infantry-1': 'C3', 'shu-general-1': 'L12' } });
    submit(g, 'wei', { type: 'endMovement' });
    expect(status(g)).toMatchObject({ stage: 'ACTIVE', phase: 'Shu Move Phase' });
  });
});

describe('turn limit (ruling)', () => {
  it('ends the game as a draw when the last round is over', () => {
    const g = scenario({ turnLimit: 2, units: { 'wei-general-1': 'A1', 'shu-general-1': 'L12' } });
    for (let i = 0; i < 3; i++) submit(g, status(g).awaiting[0]!.seat, { type: 'endMovement' });
    expect(status(g)).toMatchObject({ stage: 'ACTIVE', phase: 'Shu Move Phase', round: 2 });
    expect(submit(g, 'shu', { type: 'endMovement' }).at(-1)).toEqual({ type: 'GameEnded', winners: [], reason: 'turn limit of 2 rounds reached (draw)' });
    expect(status(g)).toMatchObject({ stage: 'FINISHED', result: { winners: [] } });
  });
});

describe('resignation', () => {
  const three = () =>
    scenario({
      players: ['wei', 'shu', 'wu'],
      cities: { H3: 'wu' },
      units: { 'wei-general-1': 'A1', 'shu-general-1': 'L12', 'wu-general-1': 'L1', 'wu-infantry-1': 'H3' },
    });

  it('takes a resigning player out of a three-player game, units and all', () => {
    const g = three();
    submit(g, 'wu', { type: 'resign' });
    expect(g.state.game.out).toEqual(['wu']);
    expect(g.state.game.units.map((u) => u.seat)).toEqual(['wei', 'shu']);
    expect(g.state.game.cities.H3).toBeNull();
    expect(status(g)).toMatchObject({ stage: 'ACTIVE', phase: 'Wei Move Phase' });
    submit(g, 'wei', { type: 'endMovement' });
    submit(g, 'shu', { type: 'endMovement' });
    expect(status(g)).toMatchObject({ phase: 'Wei Move Phase', round: 2 });
  });

  it('moves play on when the player whose turn it is resigns', () => {
    const g = three();
    submit(g, 'wei', { type: 'resign' });
    expect(status(g)).toMatchObject({ stage: 'ACTIVE', phase: 'Shu Move Phase', awaiting: [{ seat: 'shu', kind: 'MOVE' }] });
  });

  /** Three players; Wei's two Shock Troops have just forced Shu's Infantry to retreat. */
  function weiForcesShuToRetreat() {
    const g = scenario({
      players: ['wei', 'shu', 'wu'],
      phase: 'attack',
      units: { 'wei-shockTroops-1': 'E5', 'wei-shockTroops-2': 'E6', 'wei-rockets-1': 'D4', 'shu-infantry-1': 'F6', 'shu-general-1': 'L12', 'wu-general-1': 'L1' },
    });
    submit(g, 'wei', atk('wei-shockTroops-1', 'shu-infantry-1'));
    submit(g, 'wei', atk('wei-shockTroops-2', 'shu-infantry-1'));
    return g;
  }

  it('drops the pending retreat of a resigning player', () => {
    const g = weiForcesShuToRetreat();
    expect(status(g).awaiting).toMatchObject([{ seat: 'shu', kind: 'RETREAT' }]);
    submit(g, 'shu', { type: 'resign' });
    expect(g.state.game.pendingRetreat).toBeNull();
    // Nothing left for Wei to attack: the turn passes to Wu.
    expect(status(g)).toMatchObject({ phase: 'Wu Move Phase' });
  });

  it('keeps a retreat the resigning player forced in their own turn: its owner still chooses, then the turn passes on', () => {
    const g = weiForcesShuToRetreat();
    submit(g, 'wei', { type: 'resign' });
    expect(g.state.game.units.some((u) => u.seat === 'wei')).toBe(false);
    // The squares offered when the retreat was forced stay the choice (E7 touched Wei's E6 then).
    expect(status(g).awaiting).toEqual([{ seat: 'shu', kind: 'RETREAT', prompt: 'Shu Infantry 1 must retreat: choose G7 or G6 or F7 or G5' }]);
    expect(legal(g, 'shu').map((c) => c.to)).toEqual(['G7', 'G6', 'F7', 'G5']);
    expect(attempt(g, 'shu', { type: 'retreat', unit: 'shu-infantry-1', to: 'E7' })).toMatchObject({ ok: false });
    expect(submit(g, 'shu', { type: 'retreat', unit: 'shu-infantry-1', to: 'G7' }).map((e) => e.type)).toEqual(['UnitRetreated', 'TurnEnded', 'TurnStarted']);
    expect(g.state.game.units.find((u) => u.id === 'shu-infantry-1')!.square).toBe('G7');
    expect(status(g)).toMatchObject({ stage: 'ACTIVE', phase: 'Shu Move Phase', round: 1 });
  });

  it('ends the game when the resignation leaves one player with Generals (another already out)', () => {
    const g = scenario({ players: ['wei', 'shu', 'wu'], out: ['wu'], units: { 'wei-general-1': 'A1', 'shu-general-1': 'L12' } });
    submit(g, 'shu', { type: 'resign' });
    expect(status(g)).toMatchObject({ stage: 'FINISHED', result: { winners: ['wei'], reason: 'Shu resigned' } });
  });

  it('during setup takes the player out of the placement order', () => {
    const g = newGame(threeKingdoms, { terrain: { cities: [], forests: [], mountains: [] } }, ['wei', 'shu', 'wu']);
    submit(g, 'wei', { type: 'placeUnit', kind: 'general', square: 'A1' });
    submit(g, 'shu', { type: 'resign' });
    expect(status(g).awaiting).toMatchObject([{ seat: 'wu', kind: 'SETUP' }]);
    submit(g, 'wu', { type: 'placeUnit', kind: 'general', square: 'L1' });
    expect(status(g).awaiting).toMatchObject([{ seat: 'wei', kind: 'SETUP' }]);
    expect(g.state.game.units.some((u) => u.seat === 'shu')).toBe(false);
  });

  it('gives a two-player game to the other player', () => {
    const g = scenario({ units: { 'wei-general-1': 'A1', 'shu-general-1': 'L12' } });
    submit(g, 'shu', { type: 'resign' });
    expect(status(g)).toMatchObject({ stage: 'FINISHED', result: { winners: ['wei'] } });
  });
});
