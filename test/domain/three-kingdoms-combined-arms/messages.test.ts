/**
 * What the game says to players: prompts, refusals and results are sentences, with the
 * factions named as the rulebook names them ("The Three Empires were the Wei, Shu, & Wu")
 * and numbers agreeing with their nouns.
 */
import { describe, expect, it } from 'vitest';
import { SeededRandom, type Command } from '../../../src/domain/kernel/index.ts';
import { threeKingdoms, type TkState } from '../../../src/domain/three-kingdoms-combined-arms/index.ts';
import { ALL_SQUARES } from '../../../src/domain/three-kingdoms-combined-arms/board.ts';
import { UNIT_KINDS } from '../../../src/domain/three-kingdoms-combined-arms/data.ts';
import { attempt, legal, newGame, status, submit, type Played } from '../../support/play.ts';
import { scenario } from './scenario.ts';
import { pickCommand } from './strategy.ts';

/** A seat id used as a word in a sentence ("waits for wei"); ids such as wei-infantry-3 are fine. */
const LOWER_CASE_FACTION = /(^|[^\w-])(wei|shu|wu|jin)(?![\w-])/;

describe('Messages', () => {
  it('say "Generals" when all of a player\'s Generals are on the board, and name the other kinds as printed', () => {
    const g = newGame(threeKingdoms, { terrain: { cities: [], forests: [], mountains: [] } }, ['wei', 'shu']);
    submit(g, 'wei', { type: 'placeUnit', kind: 'general', square: 'A1' });
    submit(g, 'shu', { type: 'placeUnit', kind: 'general', square: 'L12' });
    submit(g, 'wei', { type: 'placeUnit', kind: 'general', square: 'A2' });
    submit(g, 'shu', { type: 'placeUnit', kind: 'general', square: 'L11' });
    expect(attempt(g, 'wei', { type: 'placeUnit', kind: 'general', square: 'A3' })).toMatchObject({ ok: false, reason: 'All your Generals are already on the board' });
    submit(g, 'wei', { type: 'placeUnit', kind: 'shockTroops', square: 'A3' });
    submit(g, 'shu', { type: 'placeUnit', kind: 'shockTroops', square: 'L10' });
    submit(g, 'wei', { type: 'placeUnit', kind: 'shockTroops', square: 'A4' });
    submit(g, 'shu', { type: 'placeUnit', kind: 'shockTroops', square: 'L9' });
    expect(attempt(g, 'wei', { type: 'placeUnit', kind: 'shockTroops', square: 'A5' })).toMatchObject({ ok: false, reason: 'All your Shock Troops are already on the board' });
  });

  it('name the corner in words in the setup prompt and refusals', () => {
    const g = newGame(threeKingdoms, { terrain: { cities: [], forests: [], mountains: [] } }, ['wei', 'shu']);
    expect(status(g).awaiting[0]!.prompt).toBe('Place a unit in your south-west corner (A1–E5): 16 left to place');
    expect(attempt(g, 'wei', { type: 'placeUnit', kind: 'general', square: 'L12' })).toMatchObject({ ok: false, reason: 'L12 is outside your south-west corner (A1–E5)' });
    submit(g, 'wei', { type: 'placeUnit', kind: 'general', square: 'A1' });
    expect(status(g).awaiting[0]!.prompt).toBe('Place a unit in your north-east corner (H8–L12): 16 left to place');
  });

  it('say "1 round" for a turn limit of one round', () => {
    const g = scenario({ units: { 'wei-general-1': 'A1', 'wei-general-2': 'A3', 'shu-general-1': 'L12', 'shu-general-2': 'L10' }, turnLimit: 1, active: 'shu', phase: 'attack' });
    expect(submit(g, 'shu', { type: 'endTurn' }).at(-1)).toEqual({ type: 'GameEnded', winners: [], reason: 'turn limit of 1 round reached (draw)' });
  });

  it('say "the only city" when a board has one city', () => {
    const g = scenario({ units: { 'wei-general-1': 'A1', 'wei-general-2': 'A3', 'shu-general-1': 'L12', 'shu-general-2': 'L10' }, cities: { A1: 'wei' }, phase: 'attack' });
    expect(submit(g, 'wei', { type: 'endTurn' }).at(-1)).toEqual({ type: 'GameEnded', winners: ['wei'], reason: 'Wei controls the only city' });
  });

  it('name factions in the match\'s own sentences too: whose turn it is, draw offers, resignations', () => {
    const g = newGame(threeKingdoms, { terrain: { cities: [], forests: [], mountains: [] } }, ['wei', 'shu']);
    expect(attempt(g, 'shu', { type: 'placeUnit', kind: 'general', square: 'L12' })).toMatchObject({ ok: false, code: 'NOT_YOUR_TURN', reason: 'Not your turn: the game waits for Wei' });
    submit(g, 'wei', { type: 'offerDraw' });
    expect(status(g).awaiting.find((p) => p.kind === 'ANSWER_DRAW')!.prompt).toBe('Wei offers a draw: accept or decline');
    expect(attempt(g, 'shu', { type: 'offerDraw' })).toMatchObject({ ok: false, reason: 'A draw offer by Wei is already open' });
    submit(g, 'shu', { type: 'resign' });
    expect(status(g).result).toEqual({ winners: ['wei'], reason: 'Shu resigned' });
  });

  it('never use a seat id as a faction name in a sentence: prompts, refusals and results of whole games', () => {
    const said = new Set<string>();
    for (const players of [['wei', 'shu'], ['shu', 'wu', 'jin'], ['jin', 'wu', 'wei', 'shu']]) {
      const g: Played<TkState> = newGame(threeKingdoms, { turnLimit: 6 }, players, `messages-${players.join('-')}`);
      for (let step = 0; status(g).stage !== 'FINISHED' && step < 3000; step++) {
        const st = status(g);
        const seat = st.awaiting[0]!.seat;
        for (const p of st.awaiting) said.add(p.prompt);
        said.add(st.phase);
        // The rules' own refusals, for the awaited seat and for another one.
        const s = g.state.game;
        const ids = [...s.units.map((u) => u.id), 'wei-general-9'];
        const tries: Command[] = [
          { type: 'placeUnit', kind: UNIT_KINDS[step % UNIT_KINDS.length]!, square: ALL_SQUARES[(step * 7) % 144]! },
          { type: 'move', unit: ids[step % ids.length]!, to: ALL_SQUARES[(step * 11) % 144]! },
          { type: 'attack', unit: ids[step % ids.length]!, target: ids[(step * 3) % ids.length]! },
          { type: 'retreat', unit: ids[step % ids.length]!, to: ALL_SQUARES[(step * 5) % 144]! },
          { type: 'endMovement' },
          { type: 'endTurn' },
        ];
        for (const who of [seat, players.find((p) => p !== seat)!]) {
          for (const c of tries) {
            const d = threeKingdoms.decide(s, c as never, who, new SeededRandom('x', 0));
            if (!d.ok) said.add(d.reason);
          }
        }
        submit(g, seat, pickCommand(s, seat, legal(g, seat)));
      }
      for (const rec of g.log) {
        const e = rec.event as { type: string; reason?: string };
        if ((e.type === 'GameEnded' || e.type === 'PlayerOut') && e.reason) said.add(e.reason);
      }
    }
    const wrong = [...said].filter((m) => LOWER_CASE_FACTION.test(m));
    expect(wrong).toEqual([]);
    // Plurals agree with their numbers.
    expect([...said].filter((m) => /\b1 (rounds|cities|squares|moves)\b/.test(m))).toEqual([]);
    expect(said.size).toBeGreaterThan(20);
  });
});
