import { describe, expect, it } from 'vitest';
import { buildSchema, getNamedType, isObjectType, type GraphQLObjectType } from 'graphql';
import { threeKingdoms } from '../../../src/domain/three-kingdoms-combined-arms/index.ts';
import { viewType as viewTypeOf } from '../../../src/api/view-types.ts';
import { legal, newGame, status, submit } from '../../support/play.ts';
import { scenario } from './scenario.ts';

/** Every key of the view is a field of its GraphQL type and every field a key, all the way down. */
function matches(type: GraphQLObjectType, value: Record<string, unknown>, path = type.name): void {
  expect(Object.keys(value).sort(), path).toEqual(Object.keys(type.getFields()).sort());
  for (const [name, field] of Object.entries(type.getFields())) {
    const named = getNamedType(field.type);
    const v = value[name];
    if (!isObjectType(named) || v === null) continue;
    for (const item of Array.isArray(v) ? v : [v]) matches(named, item as Record<string, unknown>, `${path}.${name}`);
  }
}

const viewType = viewTypeOf(threeKingdoms)!;

describe('view', () => {
  const schema = buildSchema(`scalar JSON\n${viewType.sdl}\ntype Query { view: ${viewType.typeName} }`);
  const type = schema.getType(viewType.typeName) as GraphQLObjectType;

  it('matches the GraphQL view type during setup, play, a retreat and after the end', () => {
    expect(viewType.gameType).toBe(threeKingdoms.id);
    const g = newGame(threeKingdoms, {}, ['wei', 'shu'], 'view');
    submit(g, 'wei', legal(g, 'wei')[0]!);
    matches(type, threeKingdoms.view(g.state.game, null) as Record<string, unknown>);
    const r = scenario({ phase: 'attack', cities: { A1: 'wei' }, units: { 'wei-shockTroops-1': 'E5', 'wei-shockTroops-2': 'E6', 'wei-rockets-1': 'D4', 'shu-infantry-1': 'F6', 'shu-general-1': 'L12' } });
    submit(r, 'wei', { type: 'attack', unit: 'wei-shockTroops-1', target: 'shu-infantry-1' });
    submit(r, 'wei', { type: 'attack', unit: 'wei-shockTroops-2', target: 'shu-infantry-1' });
    expect(status(r).awaiting[0]!.kind).toBe('RETREAT');
    matches(type, threeKingdoms.view(r.state.game, 'wei') as Record<string, unknown>);
    submit(r, 'shu', { type: 'resign' });
    matches(type, threeKingdoms.view(r.state.game, null) as Record<string, unknown>);
  });

  it('shows units with their printed Move and Range and their defense now', () => {
    const g = scenario({ cities: { F6: null }, units: { 'shu-infantry-1': 'F6', 'shu-general-1': 'G7' } });
    const units = (threeKingdoms.view(g.state.game, 'wei') as { units: Record<string, unknown>[] }).units;
    expect(units[0]).toMatchObject({ id: 'shu-infantry-1', name: 'Shu Infantry 1', move: 2, range: 1, defense: 6, damage: 0 });
  });
});
