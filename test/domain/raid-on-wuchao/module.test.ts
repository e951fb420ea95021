import { describe, expect, it } from 'vitest';
import { evolveMatch, GameRegistry, initialMatch } from '../../../src/domain/kernel/index.ts';
import { raidOnWuchao } from '../../../src/domain/raid-on-wuchao/index.ts';
import { DEFAULT_MAP, DEFAULT_TOKENS } from '../../../src/domain/raid-on-wuchao/data.ts';
import { attempt, newGame } from '../../support/play.ts';
import { deployed, dice, g, legal, position, status, submit, walk } from './helpers.ts';

describe('the map and token sheet are data a group can replace at creation', () => {
  const registry = new GameRegistry([raidOnWuchao]);

  it('defaults to the reconstructed scenario with {} options', () => {
    const v = registry.validateOptions('raid-on-wuchao', {});
    expect(v).toEqual({ ok: true, value: { map: DEFAULT_MAP, tokens: DEFAULT_TOKENS, xuYouTokens: 2 } });
    expect(g(newGame(raidOnWuchao, {}, ['cao', 'yuan'])).map).toEqual(DEFAULT_MAP);
    expect(registry.validateOptions('raid-on-wuchao', { turnLimit: 10 })).toMatchObject({ ok: false });
    expect(registry.validateOptions('raid-on-wuchao', { tokens: [{ id: 'x' }] })).toMatchObject({ ok: false });
  });

  it('ships the reconstructed token sheet and map as the defaults, value for value', () => {
    // side, attack full/reduced, defense, move, as docs/rules/raid-on-wuchao.md lists them.
    const sheet = DEFAULT_TOKENS.map((t) => `${t.name}: ${t.side} ${t.attack}/${t.reducedAttack} ${t.defense} ${t.move}${t.special ? ' special' : ''}`);
    expect(sheet).toEqual([
      'Cao Cao: cao 1D6/1D6 4 3 special',
      'Xu Chu: cao 3/2 4 3',
      'Yue Jin: cao 3/2 3 3',
      'Tiger and Leopard Cavalry: cao 2/1 3 4',
      'Chunyu Qiong: yuan 2/1 6 1',
      'Sui Yuanjin: yuan 2/1 5 1',
      'Lü Weihuang: yuan 2/1 5 1',
      'Han Juzi: yuan 2/1 5 1',
      'Zhao Rui: yuan 2/1 5 1',
      'Granary Guard (1): yuan 1/1 6 1',
      'Granary Guard (2): yuan 1/1 6 1',
      'Zhang He: yuan 3/2 4 2',
      'Gao Lan: yuan 3/2 4 2',
    ]);
    const edges = 'A1-B1 A1-B2 B1-B2 B1-C1 B1-C2 B2-C2 B2-C3 C1-C2 C2-C3 C1-D2 C2-D1 C3-D1 D1-D2 D1-E2 D1-E3 D2-E1 E1-E2 E2-E3 E1-F1 E2-F2 E3-F3 F1-F2 F2-F3 F1-G1 F2-G1 F2-G2 F3-G2 G1-G2 G1-H1 G2-H2 H1-H2';
    expect(DEFAULT_MAP.edges.map(([a, b]) => `${a}-${b}`).join(' ')).toBe(edges);
    expect(DEFAULT_MAP.spaces.join(' ')).toBe('A1 B1 B2 C1 C2 C3 D1 D2 E1 E2 E3 F1 F2 F3 G1 G2 H1 H2');
    expect(DEFAULT_MAP).toMatchObject({ defenseBonus: { H1: 2, H2: 2, D1: 2 }, victorySpaces: ['A1', 'H1', 'H2'], camp: 'A1', granaries: ['H1', 'H2'], yuanSetupExcludedZones: ['A', 'B', 'C'] });
  });

  it('plays with printed values given as options.tokens and options.map', () => {
    const tokens = DEFAULT_TOKENS.map((t) => (t.id === 'zhang-he' ? { ...t, defense: 2 } : t));
    const map = { ...DEFAULT_MAP, defenseBonus: { H1: 3, H2: 3, D1: 1 } };
    const game = position({ at: { 'xu-chu': 'C2', 'zhang-he': 'D1', 'gao-lan': 'H1' }, options: { tokens, map } });
    walk(game, 'cao', 'xu-chu', 'D1');
    dice(game, 1);
    submit(game, 'cao', { type: 'endMovement' });
    expect(game.log.map((r) => r.event).find((e) => e.type === 'CombatBegan')).toMatchObject({ bestDefense: 2, terrainBonus: 1, defense: 3 });
  });

  it('takes a map without camp or granaries fields as A1 and H1/H2, and a changed Xu You count', () => {
    const game = newGame(raidOnWuchao, { map: { spaces: DEFAULT_MAP.spaces, edges: DEFAULT_MAP.edges }, xuYouTokens: 1 }, ['cao', 'yuan']);
    expect(g(game).map).toMatchObject({ camp: 'A1', granaries: ['H1', 'H2'] });
    expect(g(game).xuYou).toBe(1);
  });

  it('keeps §7 terrain on a map given without defenseBonus: +2 in the granaries and in D1', () => {
    const game = newGame(raidOnWuchao, { map: { spaces: DEFAULT_MAP.spaces, edges: DEFAULT_MAP.edges } }, ['cao', 'yuan']);
    expect(g(game).map.defenseBonus).toEqual({ H1: 2, H2: 2, D1: 2 });
    const renamed = newGame(raidOnWuchao, { map: { spaces: ['A1', 'B1', 'W1', 'W2'], edges: [['A1', 'B1'], ['B1', 'W1'], ['W1', 'W2']], granaries: ['W1', 'W2'] } }, ['cao', 'yuan']);
    expect(g(renamed).map.defenseBonus).toEqual({ W1: 2, W2: 2 });
    // Given explicitly, the printed values stand, none included.
    const flat = newGame(raidOnWuchao, { map: { spaces: DEFAULT_MAP.spaces, edges: DEFAULT_MAP.edges, defenseBonus: {} } }, ['cao', 'yuan']);
    expect(g(flat).map.defenseBonus).toEqual({});
  });

  it('refuses replaced data that cannot be played, saying why', () => {
    const refused = (options: unknown) => expect(() => newGame(raidOnWuchao, options, ['cao', 'yuan']));
    refused({ map: { spaces: ['A1', 'H1', 'H2'], edges: [['A1', 'X9']] } }).toThrow('X9');
    refused({ map: { spaces: ['A1', 'H1', 'H2', 'D1'], edges: [], camp: 'Z1' } }).toThrow('Z1 is not a space');
    refused({ map: { spaces: ['A1', 'H1'], edges: [] } }).toThrow('H2 is not a space');
    refused({ tokens: [...DEFAULT_TOKENS, DEFAULT_TOKENS[1]] }).toThrow('xu-chu is used twice');
    refused({ tokens: DEFAULT_TOKENS.map((t) => ({ ...t, special: false })) }).toThrow('Cao Cao');
    refused({ tokens: DEFAULT_TOKENS.map((t) => (t.id === 'zhang-he' ? { ...t, special: true } : t)) }).toThrow('Cao Cao');
    // §11: all Cao units set up at A1, respecting the stacking limit.
    const six = [...DEFAULT_TOKENS, { id: 'zhang-liao', name: 'Zhang Liao', side: 'cao', attack: 3, reducedAttack: 2, defense: 4, move: 3 }, { id: 'li-dian', name: 'Li Dian', side: 'cao', attack: 2, reducedAttack: 1, defense: 3, move: 3 }];
    refused({ tokens: six }).toThrow('stacking limit');
    // Nine Yuan units cannot set up in one space open to them.
    refused({ map: { spaces: ['A1', 'B1', 'H1', 'H2'], edges: [['A1', 'B1'], ['B1', 'H1'], ['H1', 'H2']], yuanSetupExcludedZones: ['A', 'B', 'H'] } }).toThrow('do not fit');
  });
});

describe('replaced token sheets', () => {
  it('plays five Cao units that start together at A1 (the stacking limit allows five)', () => {
    const tokens = [...DEFAULT_TOKENS, { id: 'zhang-liao', name: 'Zhang Liao', side: 'cao', attack: 3, reducedAttack: 2, defense: 4, move: 3 }];
    const game = newGame(raidOnWuchao, { tokens }, ['cao', 'yuan']);
    submit(game, 'yuan', { type: 'deploy', placements: DEFAULT_TOKENS.filter((t) => t.side === 'yuan').map((t) => ({ unit: t.id, space: t.id.startsWith('granary') ? 'H1' : t.id.startsWith('z') || t.id.startsWith('g') ? 'G2' : 'F2' })) });
    expect(g(game).units['zhang-liao']!.space).toBe('A1');
    expect(legal(game, 'cao').filter((c) => c.unit === 'zhang-liao')).toHaveLength(2);
    submit(game, 'cao', { type: 'endMovement' });
    expect(status(game)).toMatchObject({ phase: 'Yuan movement' });
  });
});

describe('the module', () => {
  it('publishes a command schema the registry accepts, refusing unknown fields', () => {
    const registry = new GameRegistry([raidOnWuchao]);
    expect(registry.validateCommand('raid-on-wuchao', { type: 'move', unit: 'xu-chu', to: 'B1' }).ok).toBe(true);
    expect(registry.validateCommand('raid-on-wuchao', { type: 'move', unit: 'xu-chu' }).ok).toBe(false);
    expect(registry.validateCommand('raid-on-wuchao', { type: 'endMovement', now: true }).ok).toBe(false);
    expect(registry.validateCommand('raid-on-wuchao', { type: 'allocateDamage', units: ['zhang-he'] }).ok).toBe(true);
  });

  it('refuses a command of another kind than the decision awaited, saying what is awaited', () => {
    const game = position({ at: { 'xu-chu': 'D2', 'zhang-he': 'E1', 'gao-lan': 'H1' }, xuYou: 2 });
    walk(game, 'cao', 'xu-chu', 'E1');
    submit(game, 'cao', { type: 'endMovement' });
    expect(status(game).awaiting[0]!.kind).toBe('REROLL');
    expect(attempt(game, 'cao', { type: 'move', unit: 'cao-cao', to: 'B1' })).toMatchObject({ ok: false, code: 'ILLEGAL_COMMAND', reason: expect.stringContaining('reroll or acceptRoll') });
  });

  it('replays a game from its log without rolling a die (evolve never rolls)', () => {
    const game = deployed('replay');
    for (let i = 0; i < 400 && status(game).stage !== 'FINISHED'; i++) {
      const seat = status(game).awaiting[0]!.seat;
      const options = legal(game, seat);
      submit(game, seat, options[(i * 7) % options.length]!);
    }
    let s = initialMatch(raidOnWuchao, { options: {}, players: ['cao', 'yuan'] });
    for (const rec of game.log) s = evolveMatch(raidOnWuchao, s, rec);
    expect(s).toEqual(game.state);
    expect(() => raidOnWuchao.view(s.game, null)).not.toThrow();
  });

  it('shows the whole board to every viewer (no hidden information)', () => {
    const game = deployed();
    const v = raidOnWuchao.view(g(game), 'cao') as Record<string, any>;
    expect(raidOnWuchao.view(g(game), null)).toEqual(v);
    expect(raidOnWuchao.view(g(game), 'yuan')).toEqual(v);
    expect(JSON.parse(JSON.stringify(v))).toEqual(v);
    expect(v).toMatchObject({ round: 1, rounds: 8, phase: 'Cao movement', stage: 'ACTIVE', xuYouTokens: 2, granariesRaided: false, combat: null, result: null });
    expect(v.units.find((u: any) => u.id === 'cao-cao')).toMatchObject({ space: 'A1', state: 'full', attack: null, attackIsDie: true, defense: 4, move: 3, movementLeft: 3, special: true });
    expect(v.spaces.find((sp: any) => sp.id === 'H1')).toMatchObject({ control: 'yuan', defenseBonus: 2, granary: true, victory: true, units: ['chunyu-qiong', 'granary-guard-1'] });
    expect(v.connections).toHaveLength(DEFAULT_MAP.edges.length);
  });

  it('shows a combat in progress', () => {
    const game = position({ at: { 'xu-chu': 'D2', 'zhang-he': 'E1', 'gao-lan': 'H1' }, xuYou: 2 });
    walk(game, 'cao', 'xu-chu', 'E1');
    dice(game, 3);
    submit(game, 'cao', { type: 'endMovement' });
    const v = raidOnWuchao.view(g(game), 'yuan') as Record<string, any>;
    expect(v.combat).toMatchObject({ space: 'E1', attackerSide: 'cao', attackers: ['xu-chu'], defenders: ['zhang-he'], defense: 4, dice: [{ die: 'combat', roll: 3 }], rerolling: 'combat', damage: null });
    expect(v.phase).toBe('Cao combat');
  });
});
