/**
 * The resolver map is typed from FIELD_ARGS (src/api/resolvers.ts); this holds FIELD_ARGS
 * to the schema (every field with arguments, each argument with its SDL type) and every
 * resolver to a field of the schema, so the types cannot drift from the SDL.
 */
import { buildSchema as parseSdl, isInterfaceType, isObjectType, isUnionType, type GraphQLField } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema, graphqlOptions } from '../../src/api/graphql.ts';
import { FIELD_ARGS } from '../../src/api/resolvers.ts';
import { games } from '../../src/domain/games.ts';
import { GameRegistry } from '../../src/domain/kernel/index.ts';

const schema = parseSdl(buildSchema(games));

describe('the typed resolver map', () => {
  it('FIELD_ARGS lists every field that takes arguments, with the SDL\'s argument types', () => {
    const inSchema: Record<string, Record<string, Record<string, string>>> = {};
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type))) continue;
      for (const field of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) {
        if (!field.args.length) continue;
        (inSchema[type.name] ??= {})[field.name] = Object.fromEntries(field.args.map((a) => [a.name, String(a.type)]));
      }
    }
    expect(FIELD_ARGS).toEqual(inSchema);
  });

  it('every resolver is a field (or the type resolver of a union or interface) of the schema', () => {
    const { resolvers } = graphqlOptions({ registry: new GameRegistry(games) } as never, { graphiql: false, queryDepth: 12 });
    for (const [typeName, fields] of Object.entries(resolvers)) {
      const type = schema.getType(typeName);
      expect(type, typeName).toBeDefined();
      for (const name of Object.keys(fields)) {
        if (isUnionType(type) || isInterfaceType(type)) expect(name).toBe('resolveType');
        else expect(isObjectType(type) && type.getFields()[name], `${typeName}.${name}`).toBeTruthy();
      }
    }
  });
});
