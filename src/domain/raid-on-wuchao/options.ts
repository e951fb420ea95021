/**
 * Creation options: the map and the token sheet are data a group may replace with the
 * printed values (docs/rules/raid-on-wuchao.md). `{}` gives the reconstructed defaults.
 * There is no turnLimit: the game has its printed eight rounds.
 */
import type { JsonSchema } from '../kernel/index.ts';
import { DEFAULT_MAP, DEFAULT_TOKENS, STACKING_LIMIT, STRATEGIC_PASS, XU_YOU_TOKENS, zoneOf, type TokenDef, type WuchaoMap } from './data.ts';

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
        defenseBonus: { ...(given.defenseBonus ?? printedTerrain(given.spaces, given.granaries ?? DEFAULT_MAP.granaries)) },
        camp: given.camp ?? DEFAULT_MAP.camp,
        granaries: [...(given.granaries ?? DEFAULT_MAP.granaries)],
        victorySpaces: [...(given.victorySpaces ?? [given.camp ?? DEFAULT_MAP.camp, ...(given.granaries ?? DEFAULT_MAP.granaries)])],
        yuanSetupExcludedZones: [...(given.yuanSetupExcludedZones ?? DEFAULT_MAP.yuanSetupExcludedZones)],
      }
    : structuredClone(DEFAULT_MAP);
  const tokens = structuredClone(options?.tokens ?? DEFAULT_TOKENS);
  return { map, tokens, xuYouTokens: options?.xuYouTokens ?? XU_YOU_TOKENS };
}

/**
 * §7 Terrain for a map given without `defenseBonus`: +2 in each granary and in the
 * Strategic Pass (D1) when the map has one. The rule stays a rule when the map is replaced.
 */
function printedTerrain(spaces: string[], granaries: string[]): Record<string, number> {
  const bonus: Record<string, number> = {};
  for (const sp of [...granaries, STRATEGIC_PASS]) if (spaces.includes(sp)) bonus[sp] = 2;
  return bonus;
}

/**
 * What makes replaced data unplayable (the JSON Schema cannot say it): names that are not
 * spaces of the map, token ids twice, no Cao Cao, more Cao units than the camp may hold
 * (§11: all at A1, stacking limit respected), more Yuan units than its setup zones hold.
 * Empty when the scenario can be played; setup refuses the options otherwise.
 */
export function scenarioProblems(map: WuchaoMap, tokens: TokenDef[]): string[] {
  const problems: string[] = [];
  const isSpace = (sp: string) => map.spaces.includes(sp);
  for (const [a, b] of map.edges) if (!isSpace(a) || !isSpace(b)) problems.push(`the connection ${a}-${b} names a space the map does not list`);
  for (const sp of [map.camp, ...map.granaries, ...map.victorySpaces, ...Object.keys(map.defenseBonus)]) {
    if (!isSpace(sp)) problems.push(`${sp} is not a space of the map`);
  }
  if (map.granaries.includes(map.camp)) problems.push(`the camp ${map.camp} cannot be a granary`);
  const ids = tokens.map((t) => t.id);
  for (const id of new Set(ids)) if (ids.indexOf(id) !== ids.lastIndexOf(id)) problems.push(`the token id ${id} is used twice`);
  // "combat" names the combat's own 1D6 in the dice of a combat.
  if (ids.includes('combat')) problems.push('the token id "combat" is reserved for the combat die');
  const special = tokens.filter((t) => t.special);
  if (special.length !== 1 || special[0]!.side !== 'cao') problems.push('exactly one token, a Cao unit, must be the special unit Cao Cao (special: true)');
  const cao = tokens.filter((t) => t.side === 'cao').length;
  if (cao > STACKING_LIMIT) problems.push(`all ${cao} Cao units set up at ${map.camp}, more than the stacking limit of ${STACKING_LIMIT}`);
  const yuan = tokens.filter((t) => t.side === 'yuan').length;
  const setupSpaces = map.spaces.filter((sp) => !map.yuanSetupExcludedZones.includes(zoneOf(sp)) && sp !== map.camp).length;
  if (yuan > setupSpaces * STACKING_LIMIT) problems.push(`${yuan} Yuan units do not fit in the ${setupSpaces} spaces open to Yuan's setup, at most ${STACKING_LIMIT} a space`);
  return problems;
}
