import { describe, expect, it } from 'vitest';
import { attempt } from '../../support/play.ts';
import { deployed, dice, g, position, status, submit, walk } from './helpers.ts';

const events = (game: ReturnType<typeof position>, type: string) => game.log.map((r) => r.event).filter((e) => e.type === type);

/** Both sides end their movement without moving. */
function passRound(game: ReturnType<typeof position>) {
  submit(game, 'cao', { type: 'endMovement' });
  if (status(game).stage !== 'FINISHED') submit(game, 'yuan', { type: 'endMovement' });
}

describe('§3 Sequence of play', () => {
  it('runs Cao movement, Cao combat, Yuan movement, Yuan combat, victory check, round advance', () => {
    const game = deployed();
    expect(status(game)).toMatchObject({ phase: 'Cao movement', round: 1 });
    const before = game.log.length;
    submit(game, 'cao', { type: 'endMovement' });
    expect(status(game)).toMatchObject({ phase: 'Yuan movement', round: 1, awaiting: [expect.objectContaining({ seat: 'yuan', kind: 'MOVE' })] });
    submit(game, 'yuan', { type: 'endMovement' });
    expect(game.log.slice(before).map((r) => `${r.event.type}${r.event.side ? ':' + r.event.side : ''}`)).toEqual([
      'MovementEnded:cao',
      'CombatPhaseBegan:cao',
      'CombatPhaseEnded:cao',
      'MovementEnded:yuan',
      'CombatPhaseBegan:yuan',
      'CombatPhaseEnded:yuan',
      'VictoryChecked',
      'RoundAdvanced',
    ]);
    expect(status(game)).toMatchObject({ phase: 'Cao movement', round: 2 });
  });

  it('lasts eight rounds: after round 8 with no winner, Yuan wins (Survival)', () => {
    const game = deployed();
    for (let r = 1; r <= 7; r++) passRound(game);
    expect(status(game)).toMatchObject({ stage: 'ACTIVE', round: 8 });
    passRound(game);
    expect(events(game, 'VictoryChecked')).toHaveLength(8);
    expect(status(game)).toMatchObject({ stage: 'FINISHED', result: { winners: ['yuan'], reason: expect.stringContaining('Survival') } });
    expect(attempt(game, 'cao', { type: 'endMovement' })).toMatchObject({ ok: false, code: 'GAME_OVER' });
  });
});

describe('§2 Victory conditions and §9 control', () => {
  it('Cao wins by controlling both granaries at the victory check', () => {
    const game = position({ at: { 'xu-chu': 'H1', 'yue-jin': 'H2', 'gao-lan': 'E1' } });
    passRound(game);
    expect(status(game).result).toEqual({ winners: ['cao'], reason: 'Cao holds both granaries (H1, H2)' });
  });

  it('one granary is not enough', () => {
    const game = position({ at: { 'xu-chu': 'H1', 'gao-lan': 'E1' } });
    passRound(game);
    expect(status(game)).toMatchObject({ stage: 'ACTIVE', round: 2 });
  });

  it('control comes from passing through: a unit that rides through both granaries holds them', () => {
    const game = position({ at: { 'tiger-leopard-cavalry': 'G1', 'gao-lan': 'E1' } });
    walk(game, 'cao', 'tiger-leopard-cavalry', 'H1', 'H2', 'G2');
    expect(g(game).control).toMatchObject({ H1: 'cao', H2: 'cao', G2: 'cao' });
    passRound(game);
    expect(status(game).result?.winners).toEqual(['cao']);
  });

  it('is decided at the check: a granary Yuan takes back in its movement denies Cao', () => {
    const game = position({ at: { 'xu-chu': 'G2', 'yue-jin': 'G2', 'han-juzi': 'H2', 'zhao-rui': 'G1', 'gao-lan': 'E1' }, control: { H1: 'cao' }, round: 3 });
    walk(game, 'cao', 'xu-chu', 'H2');
    walk(game, 'cao', 'yue-jin', 'H2');
    dice(game, 6);
    submit(game, 'cao', { type: 'endMovement' });
    expect(g(game).control).toMatchObject({ H1: 'cao', H2: 'cao' });
    walk(game, 'yuan', 'zhao-rui', 'H1');
    submit(game, 'yuan', { type: 'endMovement' });
    expect(events(game, 'VictoryChecked')[0]).toMatchObject({ caoHoldsGranaries: false, winner: null });
    expect(status(game)).toMatchObject({ stage: 'ACTIVE', round: 4 });
  });

  it('Yuan wins by controlling A1 (Cutoff)', () => {
    const game = position({ at: { 'cao-cao': 'C1', 'zhang-he': 'B1', 'gao-lan': 'H1' } });
    submit(game, 'cao', { type: 'endMovement' });
    walk(game, 'yuan', 'zhang-he', 'A1');
    submit(game, 'yuan', { type: 'endMovement' });
    expect(status(game).result).toEqual({ winners: ['yuan'], reason: 'Cutoff: Yuan holds A1' });
  });

  it('Yuan wins ties: both conditions at the same check', () => {
    const game = position({ at: { 'cao-cao': 'C1', 'xu-chu': 'H1', 'yue-jin': 'H2', 'zhang-he': 'A1' } });
    passRound(game);
    expect(events(game, 'VictoryChecked')[0]).toMatchObject({ caoHoldsGranaries: true, yuanHoldsCamp: true, winner: 'yuan' });
    expect(status(game).result?.winners).toEqual(['yuan']);
  });
});
