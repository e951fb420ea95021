import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { SeededRandom } from '../../../src/domain/kernel/index.ts';
import { chineseWarlords } from '../../../src/domain/chinese-warlords/index.ts';
import { TERRAIN } from '../../../src/domain/chinese-warlords/data.ts';
import { DEFAULT_MAP, distance, generateMap, mapAdvice, neighbourIds } from '../../../src/domain/chinese-warlords/map.ts';
import { entryCost } from '../../../src/domain/chinese-warlords/movement.ts';
import { newGame } from '../../support/play.ts';
import { mapInput, rows } from './helpers.ts';

describe('TERRAIN table', () => {
  it('is the printed table: income, foot and vehicle costs, defense', () => {
    const printed = {
      village: [1, 1, 2, 5],
      stronghold: [4, 1, 2, 15],
      open: [0, 1, 2, 0],
      road: [0, 1, 1, 0],
      paddies: [0, 2, null, 1],
      jungle: [0, 2, null, 2],
      water: [0, null, 1, 0],
    };
    for (const [t, [income, foot, vehicles, defense]] of Object.entries(printed)) {
      const row = TERRAIN[t as keyof typeof TERRAIN];
      expect([row.income, row.foot, row.vehicles, row.defense], t).toEqual([income, foot, vehicles, defense]);
    }
    expect(TERRAIN.water.boatsOnly).toBe(true);
  });

  it('gives foot, vehicle and boat entry costs; water is for boats only', () => {
    expect(entryCost('paddies', 'foot')).toBe(2);
    expect(entryCost('jungle', 'foot')).toBe(2);
    expect(entryCost('road', 'vehicle')).toBe(1);
    expect(entryCost('open', 'vehicle')).toBe(2);
    expect(entryCost('jungle', 'vehicle')).toBeNull();
    expect(entryCost('paddies', 'vehicle')).toBeNull();
    expect(entryCost('water', 'vehicle')).toBeNull();
    expect(entryCost('water', 'foot')).toBeNull();
    expect(entryCost('water', 'boat')).toBe(1);
    expect(entryCost('open', 'boat')).toBeNull();
  });
});

describe('hex grid', () => {
  it('uses odd-r offset coordinates: six neighbours at distance 1', () => {
    expect(neighbourIds('2,2').sort()).toEqual(['1,1', '1,2', '1,3', '2,1', '2,3', '3,2'].sort());
    expect(neighbourIds('2,3').sort()).toEqual(['1,3', '2,2', '2,4', '3,2', '3,3', '3,4'].sort());
    for (const n of neighbourIds('5,5')) expect(distance('5,5', n)).toBe(1);
    expect(distance('0,0', '3,0')).toBe(3);
    expect(distance('0,0', '0,2')).toBe(2);
    expect(distance('0,0', '1,3')).toBe(3);
  });
});

describe('MAP', () => {
  it('default two-player map follows the advice: villages by the river, roads between villages, paddies beside villages', () => {
    const advice = mapAdvice(DEFAULT_MAP);
    expect(advice.villages.length).toBeGreaterThanOrEqual(4);
    expect(advice.byRiver.length * 2).toBeGreaterThanOrEqual(advice.villages.length);
    expect(advice.withPaddies).toEqual(advice.villages);
    expect(advice.roadConnected).toBe(true);
    expect(DEFAULT_MAP.strongholds).toHaveLength(2);
    for (const s of DEFAULT_MAP.strongholds) expect(DEFAULT_MAP.hexes.find((h) => h.id === s)!.terrain).toBe('stronghold');
  });

  it('a game created with {} options plays on the default map', () => {
    const ajv = new Ajv({ useDefaults: true, strict: false });
    const options = {};
    expect(ajv.validate(chineseWarlords.optionsSchema, options)).toBe(true);
    expect(options).toEqual({ map: null, mapGenerator: null, turnLimit: null });
    const g = newGame(chineseWarlords, options, ['red', 'blue']);
    expect(g.state.game.map).toEqual(DEFAULT_MAP);
    expect(g.state.game.players.red!.stronghold).toBe('1,4');
    expect(g.state.game.players.blue!.stronghold).toBe('11,4');
  });

  it('plays on any map given as data, strongholds in seat order', () => {
    const map = rows('S . . V', ' . . . . ', '. ~ ~ S');
    const ajv = new Ajv({ useDefaults: true, strict: false });
    const options = { map: { ...mapInput(map), strongholds: ['3,2', '0,0'] } };
    expect(ajv.validate(chineseWarlords.optionsSchema, options)).toBe(true);
    const g = newGame(chineseWarlords, options, ['red', 'blue']);
    expect(g.state.game.map.hexes).toHaveLength(12);
    expect(g.state.game.players.red!.stronghold).toBe('3,2');
    expect(g.state.game.players.blue!.stronghold).toBe('0,0');
    expect(g.state.game.units.filter((u) => u.owner === 'red').every((u) => u.hex === '3,2')).toBe(true);
  });

  it('refuses a map with too few strongholds for the players', () => {
    const map = rows('S . . V', '. . . S');
    expect(() => newGame(chineseWarlords, { map: mapInput(map) }, ['red', 'blue', 'green'])).toThrow(/2 strongholds for 3 players/);
  });

  it('refuses a map that gives two players the same stronghold', () => {
    const map = rows('S . . V', '. . . S');
    const options = { map: { ...mapInput(map), strongholds: ['0,0', '0,0'] } };
    expect(new Ajv({ strict: false }).validate(chineseWarlords.optionsSchema, options)).toBe(false);
    expect(() => newGame(chineseWarlords, options, ['red', 'blue'])).toThrow(/stronghold 0,0 is listed twice/);
  });

  it('generates maps from the seed after the advice, the same map for the same seed', () => {
    for (let i = 0; i < 30; i++) {
      const players = 2 + (i % 3);
      const map = generateMap(new SeededRandom(`gen-${i}`, 0), players, { width: 14, height: 11 });
      const again = generateMap(new SeededRandom(`gen-${i}`, 0), players, { width: 14, height: 11 });
      expect(again).toEqual(map);
      const advice = mapAdvice(map);
      expect(map.strongholds).toHaveLength(Math.max(2, players));
      expect(advice.roadConnected, `seed gen-${i}`).toBe(true);
      expect(advice.withPaddies, `seed gen-${i}`).toEqual(advice.villages);
      expect(advice.byRiver.length, `seed gen-${i}`).toBeGreaterThanOrEqual(Math.min(players, advice.villages.length));
      expect(map.hexes.some((h) => h.terrain === 'water')).toBe(true);
    }
  });

  it('uses a generated map for three or four players, or when asked, recorded in the setup event', () => {
    const g = newGame(chineseWarlords, {}, ['red', 'blue', 'green', 'yellow'], 'four');
    const setUp = g.log[0]!.event as { type: string; map: { strongholds: string[]; hexes: unknown[] } };
    expect(setUp.type).toBe('GameSetUp');
    expect(setUp.map.strongholds).toHaveLength(4);
    expect(setUp.map.hexes).toHaveLength(14 * 11);
    const asked = newGame(chineseWarlords, { mapGenerator: { width: 10, height: 8 } }, ['red', 'blue'], 'two');
    expect(asked.state.game.map.hexes).toHaveLength(80);
  });
});
