import { buildSchema, getNamedType, isObjectType, type GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { viewType as viewTypeOf } from '../../../src/api/view-types.ts';
import { warchon } from '../../../src/domain/warchon/index.ts';
import { legal, newGame, status, submit } from '../../support/play.ts';
import { SEATS } from './helpers.ts';

/** Every key view() returns is a field of the GraphQL type (the API returns view() as-is). */
function conforms(value: any, type: GraphQLObjectType, path: string): void {
  const fields = type.getFields();
  expect(Object.keys(value).sort(), path).toEqual(Object.keys(fields).sort());
  for (const [k, v] of Object.entries(value)) {
    const named = getNamedType(fields[k]!.type);
    if (v === null || !isObjectType(named)) continue;
    if (Array.isArray(v)) v.forEach((item, i) => conforms(item, named, `${path}.${k}[${i}]`));
    else conforms(v, named, `${path}.${k}`);
  }
}

const viewType = viewTypeOf(warchon)!;

describe('GraphQL view type', () => {
  it('matches the keys of view() through a whole game', () => {
    const schema = buildSchema(`scalar JSON\n${viewType.sdl}\ntype Query { view: ${viewType.typeName} }`);
    const type = schema.getType(viewType.typeName) as GraphQLObjectType;
    const game = newGame(warchon, { turnLimit: 10 }, SEATS, 'view-type');
    let battles = 0;
    for (let step = 0; step < 2000 && status(game).stage !== 'FINISHED'; step++) {
      for (const viewer of [...SEATS, null]) conforms(warchon.view(game.state.game, viewer), type, 'view');
      if (game.state.game.battle) battles++;
      const seat = status(game).awaiting[0]!.seat;
      const options = legal(game, seat);
      submit(game, seat, options.find((c) => c.type === 'moveUnit') ?? options[step % options.length]!);
    }
    conforms(warchon.view(game.state.game, null), type, 'view');
    expect(battles).toBeGreaterThan(0);
  });
});
