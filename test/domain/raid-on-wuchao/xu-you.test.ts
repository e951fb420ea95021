import { describe, expect, it } from 'vitest';
import { attempt } from '../../support/play.ts';
import { awaiting, dice, g, legal, position, status, submit, walk } from './helpers.ts';

const events = (game: ReturnType<typeof position>, type: string) => game.log.map((r) => r.event).filter((e) => e.type === type);

describe("§10 Xu You's Assistance", () => {
  it('after each combat die roll the game waits for Cao to reroll or accept while a token is left', () => {
    const game = position({ at: { 'cao-cao': 'D2', 'xu-chu': 'D2', 'yue-jin': 'A1', 'zhang-he': 'E1', 'gao-lan': 'H1' }, xuYou: 2 });
    walk(game, 'cao', 'cao-cao', 'E1');
    walk(game, 'cao', 'xu-chu', 'E1');
    dice(game, 2);
    submit(game, 'cao', { type: 'endMovement' });
    // Cao Cao's own 1D6 came first.
    expect(awaiting(game)).toEqual(['cao:REROLL']);
    expect(status(game).awaiting[0]!.prompt).toContain("Cao Cao's attack die");
    expect(legal(game, 'cao')).toEqual([{ type: 'reroll' }, { type: 'acceptRoll' }]);
    expect(legal(game, 'yuan')).toEqual([]);
    dice(game, 4);
    submit(game, 'cao', { type: 'acceptRoll' });
    // Then the combat die, again awaiting Cao.
    expect(events(game, 'DieRolled').map((e) => [e.die, e.roll])).toEqual([['cao-cao', 2], ['combat', 4]]);
    expect(awaiting(game)).toEqual(['cao:REROLL']);
    expect(status(game).awaiting[0]!.prompt).toContain('the combat die');
    expect(g(game).xuYou).toBe(2);
  });

  it('a reroll spends one token and its result replaces the roll; both tokens may be chained', () => {
    const game = position({ at: { 'xu-chu': 'D2', 'zhang-he': 'E1', 'gao-lan': 'H1' }, xuYou: 2 });
    walk(game, 'cao', 'xu-chu', 'E1');
    dice(game, 1);
    submit(game, 'cao', { type: 'endMovement' });
    dice(game, 2);
    const first = submit(game, 'cao', { type: 'reroll' });
    expect(first[0]).toEqual({ type: 'XuYouRerolled', space: 'E1', die: 'combat', previous: 1, roll: 2, tokensLeft: 1 });
    // One token left: the reroll's result stands unless Cao spends it too.
    expect(awaiting(game)).toEqual(['cao:REROLL']);
    dice(game, 6);
    const second = submit(game, 'cao', { type: 'reroll' });
    expect(second[0]).toMatchObject({ type: 'XuYouRerolled', previous: 2, roll: 6, tokensLeft: 0 });
    // No token left: the combat goes on with the last roll (3 + 6 = 9 against 4: 5, capped at Zhang He's 2).
    expect(second).toContainEqual(expect.objectContaining({ type: 'CombatResolved', attackTotal: 9, damage: 2 }));
    expect(g(game).xuYou).toBe(0);
    expect(events(game, 'DieRolled')).toHaveLength(1);
  });

  it('is never asked for once both tokens are spent (each token is used once per game)', () => {
    const game = position({ at: { 'xu-chu': 'D2', 'zhang-he': 'E1', 'gao-lan': 'H1' }, xuYou: 0 });
    walk(game, 'cao', 'xu-chu', 'E1');
    dice(game, 1);
    submit(game, 'cao', { type: 'endMovement' });
    expect(events(game, 'CombatResolved')).toHaveLength(1);
    expect(attempt(game, 'cao', { type: 'reroll' }).ok).toBe(false);
  });

  it('tokens spent in one combat are gone for the next one (once per game)', () => {
    const game = position({ at: { 'xu-chu': 'D1', 'yue-jin': 'D1', 'gao-lan': 'E3', 'zhang-he': 'E2', 'granary-guard-1': 'H1' }, xuYou: 2 });
    walk(game, 'cao', 'xu-chu', 'E3');
    walk(game, 'cao', 'yue-jin', 'E2');
    dice(game, 1);
    submit(game, 'cao', { type: 'endMovement' });
    dice(game, 2, 3, 1);
    submit(game, 'cao', { type: 'reroll' });
    const out = submit(game, 'cao', { type: 'reroll' });
    // The second combat (E2) rolls its die and resolves without asking Cao.
    expect(out.filter((e) => e.type === 'DieRolled')).toEqual([{ type: 'DieRolled', space: 'E2', die: 'combat', roll: 1 }]);
    expect(events(game, 'CombatResolved').map((e) => e.space)).toEqual(['E3', 'E2']);
    expect(g(game).xuYou).toBe(0);
    expect(status(game).awaiting[0]).toMatchObject({ seat: 'yuan', kind: 'MOVE' });
  });

  it("lets Cao reroll Yuan's attack die too", () => {
    const game = position({ at: { 'xu-chu': 'D1', 'zhang-he': 'E2', 'gao-lan': 'H1' }, phase: 'yuanMovement', xuYou: 1 });
    walk(game, 'yuan', 'zhang-he', 'D1');
    dice(game, 6);
    submit(game, 'yuan', { type: 'endMovement' });
    expect(awaiting(game)).toEqual(['cao:REROLL']);
    expect(status(game).awaiting[0]!.prompt).toContain("Yuan's attack");
    expect(attempt(game, 'yuan', { type: 'acceptRoll' })).toMatchObject({ ok: false, code: 'NOT_YOUR_TURN' });
    dice(game, 1);
    submit(game, 'cao', { type: 'reroll' });
    // 3 + 1 = 4 against 4 + 2: the assault fails.
    expect(events(game, 'CombatResolved')[0]).toMatchObject({ attackTotal: 4, damage: 0 });
    expect(g(game).units['zhang-he']!.space).toBe('E2');
  });
});
