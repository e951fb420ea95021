import { describe, expect, it } from 'vitest';
import { initialMatch, evolveMatch } from '../../../src/domain/kernel/index.ts';
import { chineseWarlords } from '../../../src/domain/chinese-warlords/index.ts';
import { ABILITIES } from '../../../src/domain/chinese-warlords/data.ts';
import { DEFAULT_MAP, distance } from '../../../src/domain/chinese-warlords/map.ts';
import { gameSetUp } from '../../../src/domain/chinese-warlords/setup.ts';
import { legal, newGame, status } from '../../support/play.ts';
import { act, dice, mapInput, refusal, rows, type Game } from './helpers.ts';

const input = (players = ['red', 'blue']) => ({ options: { map: null, mapGenerator: null, turnLimit: null }, players });

/** A game set up with chosen dice: abilities and extra income, then initiative, then upkeep losses. */
function setUpWith(rolls: number[], players = ['red', 'blue']): Game {
  const events = chineseWarlords.setup(input(players), dice(...rolls));
  let state = initialMatch(chineseWarlords, input(players));
  for (const event of events) state = evolveMatch(chineseWarlords, state, { event, seat: null });
  return { module: chineseWarlords, seed: 'x', options: input(players).options, state, log: events.map((event) => ({ event, seat: null })) };
}

function count(g: Game, seat: string) {
  const c: Record<string, number> = {};
  for (const u of g.state.game.units.filter((x) => x.owner === seat)) c[u.type] = (c[u.type] ?? 0) + 1;
  return c;
}

describe('STARTING FORCES', () => {
  it('each side begins with 1 Stronghold, 1 Warlord, 3 Peasants, 2 Thugs, 1 Bodyguard and treasury 0, on its stronghold', () => {
    // abilities 1 and 2 (revenue), initiative 6 / 1
    const g = setUpWith([1, 2, 6, 1]);
    for (const seat of ['red', 'blue']) {
      expect(count(g, seat)).toEqual({ warlord: 1, peasants: 3, thugs: 2, bodyguards: 1 });
      const stronghold = g.state.game.players[seat]!.stronghold;
      expect(g.state.game.units.filter((u) => u.owner === seat).every((u) => u.hex === stronghold)).toBe(true);
      expect(g.state.game.control[stronghold]).toBe(seat);
    }
    const setUp = g.log[0]!.event as any;
    expect(setUp.players.map((p: any) => p.treasury)).toEqual([0, 0]);
    // Turn 1 income: stronghold 4 + 1 revenue; upkeep (1+1+1+2+2+3)/10 = 1.
    expect(g.state.game.players.red!.treasury).toBe(4 + 1 - 1);
    // Drug Trade (1) and Prostitution Ring (2) both pay +1 Revenue.
    expect(g.log.find((r) => r.event.type === 'IncomeCollected')!.event).toMatchObject({ incomes: [{ seat: 'red', bonus: 1, total: 5 }, { seat: 'blue', bonus: 1, total: 5 }] });
    expect(g.state.game.players.blue!.treasury).toBe(4 + 1 - 1);
  });

  it('rolls each warlord special ability on 1D10 (0 reads as 10) and records it', () => {
    const g = newGame(chineseWarlords, input().options, ['red', 'blue'], 'abilities');
    const setUp = g.log[0]!.event as any;
    const rolls = g.log[0]!.rolls!;
    expect(rolls[0]!.sides).toBe(10);
    expect(setUp.players[0].abilityRoll).toBe(rolls[0]!.value);
    expect(Object.keys(ABILITIES).map(Number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(ABILITIES[9]).toEqual(ABILITIES[10]);
  });
});

describe('WARLORD SPECIAL ABILITIES at setup', () => {
  // RULINGS: "Ability 4, 'Control of one nearby village': a village no player controls
  // within 3 hexes of the Warlord's stronghold, chosen by that player (one such village:
  // taken automatically; none: the ability grants nothing)."
  it('4: one free village within 3 hexes of the stronghold is taken automatically', () => {
    const g = setUpWith([4, 4, 6, 1]);
    // On the default map red has only 3,2 within 3 hexes of 1,4, blue only 9,6 of 11,4.
    expect(g.log.filter((r) => r.event.type === 'NearbyVillageTaken').map((r) => r.event)).toEqual([
      { type: 'NearbyVillageTaken', seat: 'red', hex: '3,2' },
      { type: 'NearbyVillageTaken', seat: 'blue', hex: '9,6' },
    ]);
    expect(g.state.game.control['3,2']).toBe('red');
    expect(g.state.game.control['9,6']).toBe('blue');
    // The village pays at once: stronghold 4 + village 1 - upkeep 1.
    expect(g.state.game.players.red!.treasury).toBe(4);
  });

  // Red's stronghold 0,0 with villages 1, 2, 3 and 5 hexes away; blue's 20,0 with one next to it.
  const line = rows(['S', 'V', 'V', 'V', '.', 'V', ...Array<string>(13).fill('.'), 'V', 'S'].join(' '));
  const onLine = (rolls: number[]): Game => {
    const options = { map: mapInput(line), mapGenerator: null, turnLimit: null };
    const players = ['red', 'blue'];
    const events = chineseWarlords.setup({ options, players }, dice(...rolls));
    let state = initialMatch(chineseWarlords, { options, players });
    for (const event of events) state = evolveMatch(chineseWarlords, state, { event, seat: null });
    return { module: chineseWarlords, seed: 'x', options, state, log: events.map((event) => ({ event, seat: null })) };
  };

  it('4: with several free villages within 3 hexes the player chooses one; a farther one is never offered', () => {
    const g = onLine([4, 5]);
    expect(status(g)).toMatchObject({ stage: 'SETUP', awaiting: [{ seat: 'red', kind: 'CHOOSE_VILLAGE' }] });
    expect(legal(g, 'red')).toEqual([{ type: 'chooseVillage', hex: '1,0' }, { type: 'chooseVillage', hex: '2,0' }, { type: 'chooseVillage', hex: '3,0' }]);
    expect(legal(g, 'blue')).toEqual([]);
    expect(refusal(g, 'red', { type: 'chooseVillage', hex: '5,0' })).toMatch(/not a free village within 3 hexes/);
    const events = act(g, 'red', { type: 'chooseVillage', hex: '3,0' }, [6, 1]);
    expect(events.slice(0, 2).map((e) => e.type)).toEqual(['NearbyVillageTaken', 'TurnBegan']);
    expect(g.state.game.control['3,0']).toBe('red');
    expect(g.state.game.control['1,0']).toBeUndefined();
    expect(status(g).stage).toBe('ACTIVE');
  });

  it('4: no free village within 3 hexes grants nothing, however near the next one is', () => {
    // Blue's stronghold 20,0 has only 19,0 within 3 hexes: taken without asking.
    const g = onLine([5, 4, 6, 1]);
    expect(g.log.filter((r) => r.event.type === 'NearbyVillageTaken').map((r) => r.event)).toEqual([{ type: 'NearbyVillageTaken', seat: 'blue', hex: '19,0' }]);
    const far = rows('S . . . . V . . . . . . . . . . . . . . . S');
    const options = { map: mapInput(far), mapGenerator: null, turnLimit: null };
    const events = chineseWarlords.setup({ options, players: ['red', 'blue'] }, dice(4, 5, 6, 1));
    expect(events.find((e) => e.type === 'NearbyVillageTaken')).toEqual({ type: 'NearbyVillageTaken', seat: 'red', hex: null });
  });

  it('7: begins the game with 3 extra Bodyguard units', () => {
    const g = setUpWith([7, 1, 6, 1]);
    expect(count(g, 'red')).toEqual({ warlord: 1, peasants: 3, thugs: 2, bodyguards: 4 });
    expect(count(g, 'blue')).toEqual({ warlord: 1, peasants: 3, thugs: 2, bodyguards: 1 });
  });

  it('9-0: begins the game with 2D6 extra income', () => {
    const g = setUpWith([9, 3, 5, 10, 6, 6, 6, 1]);
    const setUp = g.log[0]!.event as any;
    expect(setUp.players[0]).toMatchObject({ abilityRoll: 9, extraIncomeRolls: [3, 5], treasury: 8 });
    expect(setUp.players[1]).toMatchObject({ abilityRoll: 10, extraIncomeRolls: [6, 6], treasury: 12 });
    expect(g.state.game.players.red!.treasury).toBe(8 + 4 - 1);
  });

  it('starts turn 1 at once: initiative, income, upkeep, then the first player recruits', () => {
    const g = setUpWith([1, 1, 2, 5]);
    expect(g.log.map((r) => r.event.type)).toEqual(['GameSetUp', 'TurnBegan', 'IncomeCollected', 'UpkeepSettled', 'PhaseBegan']);
    expect(status(g)).toMatchObject({ stage: 'ACTIVE', round: 1, phase: 'Recruitment (blue)', awaiting: [{ seat: 'blue', kind: 'RECRUIT' }] });
  });

  it('sets up 2 to 4 players with seats red, blue, green, yellow', () => {
    expect(chineseWarlords.seats).toEqual(['red', 'blue', 'green', 'yellow']);
    expect([chineseWarlords.minPlayers, chineseWarlords.maxPlayers]).toEqual([2, 4]);
    const g = newGame(chineseWarlords, {}, ['red', 'blue', 'green'], 'three');
    expect(Object.keys(g.state.game.players)).toEqual(['red', 'blue', 'green']);
    expect(new Set(Object.values(g.state.game.players).map((p) => p.stronghold)).size).toBe(3);
  });

  it('records every setup die in its event (the game set-up event holds the rolled map)', () => {
    const events = chineseWarlords.setup(input(), dice(9, 3, 5, 2, 6, 1));
    expect(gameSetUp(input(), dice(9, 3, 5, 2))).toEqual(events[0]);
    expect(events[1]).toMatchObject({ type: 'TurnBegan', initiativeRolls: [{ red: 6, blue: 1 }], order: ['red', 'blue'] });
  });
});

describe('the view before setup', () => {
  it('version 0 (before GameSetUp) is the empty pre-setup view', () => {
    for (const players of [['red', 'blue'], ['red', 'blue', 'green', 'yellow']]) {
      const s = chineseWarlords.initialState(input(players));
      expect(chineseWarlords.view(s, null)).toMatchObject({ turn: 0, phase: 'setup', activeSeat: null, players: [], units: [], attack: null, defense: null, result: null });
    }
  });
});
