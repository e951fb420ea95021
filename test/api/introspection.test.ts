/**
 * GraphiQL, graphql-codegen and every generator start with the standard introspection
 * query (graphql-js' getIntrospectionQuery, 15 fields deep): it must be answered, while
 * the depth limit still holds for everything else.
 */
import { buildClientSchema, getIntrospectionQuery, printSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000 });
});
afterAll(async () => server?.close());

describe('introspection', () => {
  it('the standard introspection query is answered, and gives back the whole schema', async () => {
    for (const options of [{}, { descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true }]) {
      const r = await server.gql(getIntrospectionQuery(options));
      expect(r.errors).toBeUndefined();
      expect(r.status).toBe(200);
      const schema = buildClientSchema(r.data);
      expect(printSchema(schema)).toContain('union GameView');
      expect(schema.getQueryType()?.getFields().game).toBeDefined();
    }
  });

  it('a query nested deeper than the limit is still refused', async () => {
    const deep = `{ games { edges { node { view { ... on RaidOnWuchaoView { combat { dice { die } } } } } } } }`;
    const limited = await startTestServer({ rateLimit: 100_000, queryDepth: 5 });
    try {
      const r = await limited.gql(deep);
      expect(r.status).toBe(400);
      expect(r.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
      expect(r.errors?.[0]?.message).toMatch(/7 deep; at most 5/);
      // Introspection is not counted, even mixed into an operation.
      const mixed = await limited.gql(`{ __schema { types { fields { type { ofType { ofType { name } } } } } } gameTypes { id } }`);
      expect(mixed.errors).toBeUndefined();
    } finally {
      await limited.close();
    }
  });
});
