/**
 * The GraphQL view types are generated from each module's view schema (src/api/view-types.ts).
 * Clients depend on their names: the generated types and fields of the hosted games are
 * pinned in game-view-fields.txt (written from the hand-written SDL they replaced).
 */
import { readFileSync } from 'node:fs';
import { buildSchema as parseSdl, isObjectType, type GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/api/graphql.ts';
import { viewType, viewTypes } from '../../src/api/view-types.ts';
import { games } from '../../src/domain/games.ts';
import type { GameModule, JsonSchema } from '../../src/domain/kernel/index.ts';
import { json, viewObject } from '../../src/domain/kernel/view-schema.ts';
import { hostedGuessingGame } from '../support/hosted-guessing-game.ts';

/** Every field of every object type below the view types, as "Type.field: Type". */
function fields(sdl: string): string[] {
  const schema = parseSdl(`scalar JSON\n${sdl}\ntype Query { x: Int }`);
  return Object.values(schema.getTypeMap())
    .filter((t): t is GraphQLObjectType => isObjectType(t) && !t.name.startsWith('__') && t.name !== 'Query')
    .flatMap((t) => Object.values(t.getFields()).map((f) => `${t.name}.${f.name}: ${String(f.type)}`))
    .sort();
}

const withView = (viewSchema: JsonSchema): GameModule => ({ ...hostedGuessingGame, viewSchema });

describe('generated view types', () => {
  it('keep the type and field names (and types) of the GameView union that clients query', () => {
    const pinned = readFileSync(new URL('./game-view-fields.txt', import.meta.url), 'utf8').trim().split('\n');
    expect(fields(viewTypes(games).map((v) => v.sdl).join('\n'))).toEqual(pinned);
    expect(viewTypes(games).map((v) => v.typeName)).toEqual(['RaidOnWuchaoView', 'ThreeKingdomsCombinedArmsView', 'ChineseWarlordsView', 'WarchonView']);
  });

  it('carry the schema\'s descriptions as the types\' comments', () => {
    const schema = parseSdl(buildSchema(games));
    const unit = schema.getType('RaidOnWuchaoUnit') as GraphQLObjectType;
    expect(unit.getFields().special!.description).toBe('Cao Cao: destroying him wins the game for Yuan.');
    expect(schema.getType('WarchonUnit')!.description).toMatch(/^A playmark/);
  });

  it('a game with a view schema joins the union; a record is JSON', () => {
    const schema = parseSdl(buildSchema([...games, hostedGuessingGame]));
    const type = schema.getType('GuessingGameView') as GraphQLObjectType;
    expect(Object.fromEntries(Object.entries(type.getFields()).map(([k, f]) => [k, String(f.type)]))).toEqual({
      phase: 'String!', round: 'Int!', target: 'Int!', first: 'String', scores: 'JSON!', guessed: '[String!]!', guesses: 'JSON!', gameType: 'String!',
    });
    expect(type.getInterfaces().map((i) => i.name)).toEqual(['View']);
    expect(buildSchema(games)).not.toContain('GuessingGameView');
  });

  it('refuses a schema it cannot say in GraphQL, naming where', () => {
    const { string, integer, object } = json;
    expect(viewType({ ...hostedGuessingGame, viewSchema: undefined })).toBeUndefined();
    expect(() => viewType(withView(viewObject('View', { phase: string, board: object({ size: integer }) })))).toThrow(/view\.board: an object needs a title/);
    expect(() => viewType(withView(viewObject('View', { round: integer })))).toThrow(/view\.phase: a view has a phase/);
    expect(() => viewType(withView({ ...viewObject('View', { phase: string, round: integer }), required: ['phase'] }))).toThrow(/view\.round: every property of a view object is required/);
    expect(() => viewType(withView(viewObject('View', { phase: string, a: viewObject('Part', { x: integer }), b: viewObject('Part', { y: integer }) })))).toThrow(/two different objects are titled Part/);
    expect(() => viewType(withView(viewObject('Board', { phase: string })))).toThrow(/titled View/);
  });
});
