/**
 * Creation options: the map and the token sheet are data a group may replace with the
 * printed values (RULINGS.md, Raid on Wuchao). `{}` gives the reconstructed defaults.
 * There is no turnLimit: the game has its printed eight rounds.
 */
import type { JsonSchema } from '../kernel/index.ts';
import { DEFAULT_MAP, DEFAULT_TOKENS, XU_YOU_TOKENS, type TokenDef, type WuchaoMap } from './data.ts';

export interface WuchaoOptions {
  map?: Partial<WuchaoMap> & Pick<WuchaoMap, 'spaces' | 'edges'>;
  tokens?: TokenDef[];
  xuYouTokens?: number;
}

const spaceName = { type: 'string', minLength: 1, maxLength: 20 };
const attackValue = { oneOf: [{ type: 'integer', minimum: 0, maximum: 20 }, { const: '1D6' }] };

export const optionsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    map: {
      type: 'object',
      additionalProperties: false,
      required: ['spaces', 'edges'],
      properties: {
        spaces: { type: 'array', items: spaceName, minItems: 2, maxItems: 200, uniqueItems: true },
        edges: { type: 'array', items: { type: 'array', items: spaceName, minItems: 2, maxItems: 2 }, maxItems: 1000 },
        defenseBonus: { type: 'object', additionalProperties: { type: 'integer', minimum: 0, maximum: 20 } },
        victorySpaces: { type: 'array', items: spaceName },
        camp: spaceName,
        granaries: { type: 'array', items: spaceName, minItems: 1, maxItems: 10 },
        yuanSetupExcludedZones: { type: 'array', items: { type: 'string' } },
      },
      default: DEFAULT_MAP,
    },
    tokens: {
      type: 'array',
      minItems: 2,
      maxItems: 40,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'name', 'side', 'attack', 'reducedAttack', 'defense', 'move'],
        properties: {
          id: { type: 'string', minLength: 1, maxLength: 40 },
          name: { type: 'string', minLength: 1, maxLength: 80 },
          side: { enum: ['cao', 'yuan'] },
          attack: attackValue,
          reducedAttack: attackValue,
          defense: { type: 'integer', minimum: 0, maximum: 20 },
          move: { type: 'integer', minimum: 0, maximum: 20 },
          special: { type: 'boolean' },
        },
      },
      default: DEFAULT_TOKENS,
    },
    xuYouTokens: { type: 'integer', minimum: 0, maximum: 5, default: XU_YOU_TOKENS },
  },
};

/** The options with every default filled in (the registry fills them too; tests may not). */
export function scenario(options: WuchaoOptions | undefined): { map: WuchaoMap; tokens: TokenDef[]; xuYouTokens: number } {
  const given = options?.map;
  const map: WuchaoMap = given
    ? {
        spaces: [...given.spaces],
        edges: given.edges.map(([a, b]) => [a, b] as [string, string]),
        defenseBonus: { ...(given.defenseBonus ?? {}) },
        camp: given.camp ?? DEFAULT_MAP.camp,
        granaries: [...(given.granaries ?? DEFAULT_MAP.granaries)],
        victorySpaces: [...(given.victorySpaces ?? [given.camp ?? DEFAULT_MAP.camp, ...(given.granaries ?? DEFAULT_MAP.granaries)])],
        yuanSetupExcludedZones: [...(given.yuanSetupExcludedZones ?? DEFAULT_MAP.yuanSetupExcludedZones)],
      }
    : structuredClone(DEFAULT_MAP);
  const tokens = structuredClone(options?.tokens ?? DEFAULT_TOKENS);
  return { map, tokens, xuYouTokens: options?.xuYouTokens ?? XU_YOU_TOKENS };
}
