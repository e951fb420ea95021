import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema as parseSdl, GraphQLObjectType } from 'graphql';
import { buildSchema } from '../../src/api/graphql.ts';
import { games } from '../../src/domain/games.ts';
import { viewTypes } from '../../src/api/views/index.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

/** A selection of every field of a type, recursively (views have no cycles). */
function selection(schema: ReturnType<typeof parseSdl>, typeName: string, depth = 0): string {
  const type = schema.getType(typeName) as GraphQLObjectType;
  return `{ ${Object.values(type.getFields())
    .map((f) => {
      let t = f.type as { ofType?: unknown; name?: string };
      while (t.ofType) t = t.ofType as typeof t;
      const inner = schema.getType(t.name!);
      return inner instanceof GraphQLObjectType ? (depth < 6 ? `${f.name} ${selection(schema, inner.name, depth + 1)}` : '') : f.name;
    })
    .join(' ')} }`;
}

describe('typed views', () => {
  it('every hosted game has a typed view in the GameView union', () => {
    expect(viewTypes.map((v) => v.gameType).sort()).toEqual(games.map((g) => g.id).sort());
  });

  for (const v of viewTypes) {
    it(`${v.gameType}: the view of a new game resolves as ${v.typeName} with every field`, async () => {
      const type = (await server.gql('{ gameTypes { id seats minPlayers } }')).data.gameTypes.find((t: { id: string }) => t.id === v.gameType);
      const seats = type.seats.slice(0, type.minPlayers).map((seat: string) => ({ seat, name: seat }));
      const created = await server.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } } }`, { i: { type: v.gameType, seats } });
      expect(created.errors).toBeUndefined();
      const schema = parseSdl(buildSchema());
      const q = await server.gql(`query($id: ID!) { game(id: $id) { view { __typename ... on ${v.typeName} ${selection(schema, v.typeName)} } } }`, { id: created.data.createGame.game.id });
      expect(q.errors).toBeUndefined();
      expect(q.data.game.view.__typename).toBe(v.typeName);
    });
  }
});
