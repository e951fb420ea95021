/**
 * One source for each view: the GraphQL type of a game's view (generated from its viewSchema) must say
 * exactly what the game's view() returns. Random games, every seat and a spectator after
 * every command: every key is a field and every field a key, all the way down, with the
 * field's type (Int, Float, String, Boolean, lists, non-null).
 */
import { buildSchema as parseSdl, getNamedType, isListType, isNonNullType, isObjectType, isScalarType, type GraphQLObjectType, type GraphQLOutputType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/api/graphql.ts';
import { viewTypes as viewTypesOf } from '../../src/api/view-types.ts';
import { games } from '../../src/domain/games.ts';
import { visibleTo } from '../../src/domain/kernel/index.ts';
import { randomGameOf } from '../support/random-game.ts';

const schema = parseSdl(buildSchema(games));
const viewTypes = viewTypesOf(games);
/** Fields the API adds to every typed view (the View interface). */
const ADDED = new Set(['gameType']);
/** Games are short or long: enough of them to fill most fields. */
const GAMES: Record<string, number> = { warchon: 40, 'chinese-warlords': 6 };
/**
 * Fields a random walk seldom fills (a battle's later steps, a defender's pending choice,
 * carried units): the rule tests reach them; here they are only checked when present.
 */
const SELDOM = new Set([
  'ChineseWarlordsUnit.carriedBy',
  'ChineseWarlordsView.defense',
  'WarchonUnit.fightsFor',
  'WarchonBattle.lastNumber',
  'WarchonBattle.berserkers',
  'WarchonBattle.withheld',
  'WarchonBattle.bridge',
  'WarchonBattle.modifiers',
]);

const SCALARS: Record<string, (v: unknown) => boolean> = {
  Int: Number.isInteger,
  Float: (v) => typeof v === 'number',
  String: (v) => typeof v === 'string',
  ID: (v) => typeof v === 'string',
  Boolean: (v) => typeof v === 'boolean',
  JSON: () => true,
};

/** Throws, naming the path, where the value is not of the type (plain code: it runs on every view of every step). */
function conforms(value: unknown, type: GraphQLOutputType, path: string, seen: Set<string>): void {
  const fail = (what: string) => {
    throw new Error(`${path}: ${what} (${JSON.stringify(value)?.slice(0, 200)})`);
  };
  if (isNonNullType(type)) {
    if (value === null || value === undefined) fail(`null, but ${String(type)}`);
    conforms(value, type.ofType, path, seen);
    return;
  }
  if (value === null || value === undefined) return;
  if (isListType(type)) {
    if (!Array.isArray(value)) fail('not a list');
    (value as unknown[]).forEach((item, i) => conforms(item, type.ofType, `${path}[${i}]`, seen));
    return;
  }
  if (isScalarType(type)) {
    if (!SCALARS[type.name]!(value)) fail(`not ${type.name}`);
    return;
  }
  const object = type as GraphQLObjectType;
  if (!isObjectType(object) || typeof value !== 'object' || Array.isArray(value)) fail(`not ${String(type)}`);
  const fields = object.getFields();
  const names = Object.keys(fields).filter((f) => !(ADDED.has(f) && object.getInterfaces().length));
  const keys = Object.keys(value as object);
  const extra = keys.filter((k) => !names.includes(k));
  const missing = names.filter((f) => !keys.includes(f));
  if (extra.length || missing.length) fail(`keys of ${object.name}: not in the type ${JSON.stringify(extra)}, missing ${JSON.stringify(missing)}`);
  for (const f of names) {
    const v = (value as Record<string, unknown>)[f];
    if (v !== null && !(Array.isArray(v) && v.length === 0)) seen.add(`${object.name}.${f}`);
    conforms(v, fields[f]!.type, `${path}.${f}`, seen);
  }
}

/** Every field of the type and of the object types below it. */
function allFields(type: GraphQLObjectType, out = new Set<string>()): Set<string> {
  for (const f of Object.values(type.getFields())) {
    if (type.getInterfaces().length && ADDED.has(f.name)) continue;
    if (out.has(`${type.name}.${f.name}`) || SELDOM.has(`${type.name}.${f.name}`)) continue;
    out.add(`${type.name}.${f.name}`);
    const named = getNamedType(f.type);
    if (isObjectType(named) && !SELDOM.has(`${type.name}.${f.name}`)) allFields(named, out);
  }
  return out;
}

describe('the GraphQL view types are what view() returns', () => {
  for (const v of viewTypes) {
    it(`${v.gameType}: ${v.typeName}`, () => {
      const module = games.find((g) => g.id === v.gameType)!;
      const type = schema.getType(v.typeName) as GraphQLObjectType;
      const seen = new Set<string>();
      for (let seed = 1; seed <= (GAMES[module.id] ?? 4); seed++) {
        randomGameOf(module, seed, (game) => {
          for (const viewer of [...game.state.players, null]) conforms(visibleTo(module, game.state, viewer).view(), type, 'view', seen);
        });
      }
      // And the reverse, over whole games: every field of the type has been seen with a value.
      const never = [...allFields(type)].filter((f) => !seen.has(f));
      expect(never, 'fields never filled in any view').toEqual([]);
    });
  }
});
