/**
 * Whole games of Three Kingdoms Combined Arms through GraphQL, as a client plays them:
 * every command is picked from the awaited seat's legalCommands, until the game is over;
 * then the export verifies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createApiGame, expectVerifiableExport, playToTheEnd, SUBMIT } from '../support/api-game.ts';
import { threeKingdoms, type TkState } from '../../src/domain/three-kingdoms-combined-arms/index.ts';
import { pickCommand } from '../domain/three-kingdoms-combined-arms/strategy.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000 });
});
afterAll(async () => server?.close());

const TYPE = 'three-kingdoms-combined-arms';
const LAYOUT = {
  cities: ['F6', 'G7', 'C9', 'J4', 'A6', 'L7', 'F1', 'G12', 'D7', 'I6'],
  forests: ['E8', 'H5', 'B4', 'K9', 'C11', 'J2', 'F10', 'G3', 'A10', 'L3'],
  mountains: ['F8', 'G5', 'D10', 'I3', 'B8', 'K5', 'E9', 'H4', 'C7', 'J8'],
};

const create = (players: string[], options: Record<string, unknown>) => createApiGame(server, threeKingdoms, players, options);

async function playGame(players: string[], options: Record<string, unknown>) {
  const game = await create(players, options);
  const played = await playToTheEnd(server, threeKingdoms, game, ({ seat, awaiting, commands }) => {
    expect(awaiting).toHaveLength(1); // one decision at a time in this game
    return pickCommand(game.state, seat, commands, 8);
  });
  return { ...game, ...played };
}

describe('Three Kingdoms Combined Arms through the API', () => {
  it('is listed with its seats, player counts and schemas', async () => {
    const r = await server.gql(`{ gameTypes { id name seats minPlayers maxPlayers optionsSchema commandSchema } }`);
    const type = r.data.gameTypes.find((t: { id: string }) => t.id === TYPE);
    expect(type).toMatchObject({ name: 'Three Kingdoms Combined Arms', seats: ['wei', 'shu', 'wu', 'jin'], minPlayers: 2, maxPlayers: 4 });
  });

  it('refuses illegal and out-of-turn commands with a reason', async () => {
    const game = await create(['wei', 'shu'], { terrain: LAYOUT });
    const wrongSeat = await server.gql(SUBMIT, { id: game.id, c: { type: 'placeUnit', kind: 'general', square: 'L12' } }, game.tokens.shu);
    expect(wrongSeat.errors?.[0].extensions.code).toBe('NOT_YOUR_TURN');
    const outside = await server.gql(SUBMIT, { id: game.id, c: { type: 'placeUnit', kind: 'general', square: 'L12' } }, game.tokens.wei);
    expect(outside.errors?.[0].extensions).toMatchObject({ code: 'ILLEGAL_COMMAND', reason: 'L12 is outside your south-west corner (A1–E5)' });
    const malformed = await server.gql(SUBMIT, { id: game.id, c: { type: 'placeUnit', kind: 'dragon', square: 'A1' } }, game.tokens.wei);
    expect(malformed.errors?.[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('plays a whole two-player game to a result, and its export verifies', async () => {
    const game = await playGame(['wei', 'shu'], { terrain: LAYOUT, turnLimit: 40 });
    // Every kind of decision came up, a retreat choice by the player not on turn included.
    expect([...game.kinds].sort()).toEqual(['ATTACK', 'MOVE', 'RETREAT', 'SETUP']);
    // Won by conquest, not stopped by the turn limit.
    expect(game.result).toMatchObject({ winners: [expect.any(String)], reason: 'every enemy General destroyed' });
    expect(game.state.stage).toBe('FINISHED');
    // The server's view is the one the rules give for the folded events.
    const rest = await server.rest('GET', `/api/games/${game.id}`);
    expect(rest.body.game.view).toEqual(threeKingdoms.view(game.state, null));
    const typed = await server.gql(
      `query($id: ID!) { game(id: $id) { view { __typename ... on ThreeKingdomsCombinedArmsView { stage round phase units { id seat square defense } terrain { square kind controller } result { winners reason } } } } }`,
      { id: game.id },
    );
    expect(typed.errors).toBeUndefined();
    const local = threeKingdoms.view(game.state, null) as { stage: string; round: number; phase: string; units: { id: string; seat: string; square: string; defense: number }[]; terrain: unknown[]; result: unknown };
    expect(typed.data.game.view).toEqual({
      __typename: 'ThreeKingdomsCombinedArmsView',
      stage: local.stage,
      round: local.round,
      phase: local.phase,
      units: local.units.map(({ id, seat, square, defense }) => ({ id, seat, square, defense })),
      terrain: local.terrain,
      result: local.result,
    });
    await expectVerifiableExport(server, game.id);
  }, 180_000);

  it('plays a whole three-player game to a result, and its export verifies', async () => {
    const game = await playGame(['wu', 'wei', 'shu'], { terrain: LAYOUT, turnLimit: 20 });
    const log = await server.rest('GET', `/api/games/${game.id}/events`);
    const out = log.body.events.filter((e: { type: string }) => e.type === 'PlayerOut').map((e: { data: { seat: string } }) => e.data.seat);
    // With three players, each loser was put out when their last General fell; the winner is the one left.
    expect(game.result.winners).toHaveLength(1);
    expect(out.sort()).toEqual(['wu', 'wei', 'shu'].filter((p) => p !== game.result.winners[0]).sort());
    expect(game.result.reason).toBeTruthy();
    expect(game.result.winners.length).toBeLessThanOrEqual(1);
    await expectVerifiableExport(server, game.id);
  }, 180_000);
});
