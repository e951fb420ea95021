/**
 * The game's data: the map and the token sheet. The printed map and tokens did not reach
 * us; these are the service's reconstructed defaults (docs/rules/raid-on-wuchao.md). A group that
 * owns the printed game replaces them at creation (options.map, options.tokens).
 */

export type Side = 'cao' | 'yuan';
export const SIDES: readonly Side[] = ['cao', 'yuan'];

/** "1D6": the unit rolls its attack each time it attacks (§5 Special Unit – Cao Cao). */
export type AttackValue = number | '1D6';

export interface TokenDef {
  id: string;
  name: string;
  side: Side;
  /** Attack Power, full strength (left number). */
  attack: AttackValue;
  /** Attack Power on the reduced (blood-splatter) side. */
  reducedAttack: AttackValue;
  /** Defense Power (middle number); the same on both sides of the token. */
  defense: number;
  /** Movement Points (right number). */
  move: number;
  /** The special unit whose destruction wins the game for Yuan (§2 Elimination). */
  special?: boolean;
}

export interface WuchaoMap {
  spaces: string[];
  /** Connections; every connection works both ways. */
  edges: [string, string][];
  /** Terrain: +Defense for the defenders of a space (§7: granaries and the Strategic Pass). */
  defenseBonus: Record<string, number>;
  victorySpaces: string[];
  /** Cao Cao's starting position: all Cao units set up here; Yuan wins by controlling it. */
  camp: string;
  /** Yuan Shao's granaries: Cao wins by controlling both. */
  granaries: string[];
  /** Zones (the letters of a space's name) where Yuan may not set up (§11: zones A–C). */
  yuanSetupExcludedZones: string[];
}

export const DEFAULT_MAP: WuchaoMap = {
  spaces: ['A1', 'B1', 'B2', 'C1', 'C2', 'C3', 'D1', 'D2', 'E1', 'E2', 'E3', 'F1', 'F2', 'F3', 'G1', 'G2', 'H1', 'H2'],
  edges: [
    ['A1', 'B1'], ['A1', 'B2'], ['B1', 'B2'], ['B1', 'C1'], ['B1', 'C2'], ['B2', 'C2'], ['B2', 'C3'],
    ['C1', 'C2'], ['C2', 'C3'], ['C1', 'D2'], ['C2', 'D1'], ['C3', 'D1'], ['D1', 'D2'],
    ['D1', 'E2'], ['D1', 'E3'], ['D2', 'E1'], ['E1', 'E2'], ['E2', 'E3'],
    ['E1', 'F1'], ['E2', 'F2'], ['E3', 'F3'], ['F1', 'F2'], ['F2', 'F3'],
    ['F1', 'G1'], ['F2', 'G1'], ['F2', 'G2'], ['F3', 'G2'], ['G1', 'G2'],
    ['G1', 'H1'], ['G2', 'H2'], ['H1', 'H2'],
  ],
  defenseBonus: { H1: 2, H2: 2, D1: 2 },
  victorySpaces: ['A1', 'H1', 'H2'],
  camp: 'A1',
  granaries: ['H1', 'H2'],
  yuanSetupExcludedZones: ['A', 'B', 'C'],
};

export const DEFAULT_TOKENS: TokenDef[] = [
  { id: 'cao-cao', name: 'Cao Cao', side: 'cao', attack: '1D6', reducedAttack: '1D6', defense: 4, move: 3, special: true },
  { id: 'xu-chu', name: 'Xu Chu', side: 'cao', attack: 3, reducedAttack: 2, defense: 4, move: 3 },
  { id: 'yue-jin', name: 'Yue Jin', side: 'cao', attack: 3, reducedAttack: 2, defense: 3, move: 3 },
  { id: 'tiger-leopard-cavalry', name: 'Tiger and Leopard Cavalry', side: 'cao', attack: 2, reducedAttack: 1, defense: 3, move: 4 },
  { id: 'chunyu-qiong', name: 'Chunyu Qiong', side: 'yuan', attack: 2, reducedAttack: 1, defense: 6, move: 1 },
  { id: 'sui-yuanjin', name: 'Sui Yuanjin', side: 'yuan', attack: 2, reducedAttack: 1, defense: 5, move: 1 },
  { id: 'lu-weihuang', name: 'Lü Weihuang', side: 'yuan', attack: 2, reducedAttack: 1, defense: 5, move: 1 },
  { id: 'han-juzi', name: 'Han Juzi', side: 'yuan', attack: 2, reducedAttack: 1, defense: 5, move: 1 },
  { id: 'zhao-rui', name: 'Zhao Rui', side: 'yuan', attack: 2, reducedAttack: 1, defense: 5, move: 1 },
  { id: 'granary-guard-1', name: 'Granary Guard (1)', side: 'yuan', attack: 1, reducedAttack: 1, defense: 6, move: 1 },
  { id: 'granary-guard-2', name: 'Granary Guard (2)', side: 'yuan', attack: 1, reducedAttack: 1, defense: 6, move: 1 },
  { id: 'zhang-he', name: 'Zhang He', side: 'yuan', attack: 3, reducedAttack: 2, defense: 4, move: 2 },
  { id: 'gao-lan', name: 'Gao Lan', side: 'yuan', attack: 3, reducedAttack: 2, defense: 4, move: 2 },
];

/** §7: the Strategic Pass, +2 Defense like the granaries. */
export const STRATEGIC_PASS = 'D1';

/** §1: the game lasts eight rounds. */
export const ROUNDS = 8;
/** §6: maximum five units per space. */
export const STACKING_LIMIT = 5;
/** §10: two Xu You tokens. */
export const XU_YOU_TOKENS = 2;

/** The zone of a space is its letter(s): "D1" is in zone D. */
export function zoneOf(space: string): string {
  return /^[A-Za-z]+/.exec(space)?.[0] ?? space;
}

export function enemyOf(side: Side): Side {
  return side === 'cao' ? 'yuan' : 'cao';
}

export const SIDE_NAME: Record<Side, string> = { cao: 'Cao', yuan: 'Yuan' };
