import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema as parseSdl, GraphQLObjectType } from 'graphql';
import { buildSchema } from '../../src/api/graphql.ts';
import { games } from '../../src/domain/games.ts';
import { viewTypes as viewTypesOf } from '../../src/api/view-types.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const viewTypes = viewTypesOf(games);

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
      const schema = parseSdl(buildSchema(games));
      const q = await server.gql(`query($id: ID!) { game(id: $id) { view { __typename ... on ${v.typeName} ${selection(schema, v.typeName)} } } }`, { id: created.data.createGame.game.id });
      expect(q.errors).toBeUndefined();
      expect(q.data.game.view.__typename).toBe(v.typeName);
    });
  }
});

describe('the GameView union as a generated client queries it', () => {
  it('one query may select every field of every member at once: same name, same type', async () => {
    const schema = parseSdl(buildSchema(games));
    const members = ['GenericView', ...viewTypes.map((v) => v.typeName)];
    const all = `view { __typename ${members.map((m) => `... on ${m} ${selection(schema, m)}`).join(' ')} }`;
    for (const v of viewTypes) {
      const type = (await server.gql('{ gameTypes { id seats minPlayers } }')).data.gameTypes.find((t: { id: string }) => t.id === v.gameType);
      const seats = type.seats.slice(0, type.minPlayers).map((seat: string) => ({ seat, name: seat }));
      const created = await server.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } } }`, { i: { type: v.gameType, seats } });
      const q = await server.gql(`query($id: ID!) { game(id: $id) { ${all} } }`, { id: created.data.createGame.game.id });
      expect(q.errors, v.gameType).toBeUndefined();
      expect(q.data.game.view.__typename).toBe(v.typeName);
      // What every view has, through the shared interface.
      const common = await server.gql(`query($id: ID!) { game(id: $id) { view { ... on View { gameType phase } } } }`, { id: created.data.createGame.game.id });
      expect(common.errors).toBeUndefined();
      expect(common.data.game.view.gameType).toBe(v.gameType);
      expect(typeof common.data.game.view.phase).toBe('string');
    }
  });

  it('every typed view implements View', () => {
    const schema = parseSdl(buildSchema(games));
    for (const v of viewTypes) expect((schema.getType(v.typeName) as GraphQLObjectType).getInterfaces().map((i) => i.name)).toEqual(['View']);
  });
});
