/**
 * Whole games of Three Kingdoms Combined Arms through GraphQL, as a client plays them:
 * every command is picked from the awaited seat's legalCommands, until the game is over;
 * then the export verifies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { threeKingdoms, type TkState } from '../../src/domain/three-kingdoms-combined-arms/index.ts';
import { pickCommand } from '../domain/three-kingdoms-combined-arms/strategy.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000 });
});
afterAll(async () => server?.close());

const TYPE = 'three-kingdoms-combined-arms';
const MATCH = ['resign', 'offerDraw', 'acceptDraw', 'declineDraw'];
const SUBMIT = `mutation($id: ID!, $c: JSON!) { submitCommand(gameId: $id, command: $c) { game { version } events { version type seat data } } }`;
const LAYOUT = {
  cities: ['F6', 'G7', 'C9', 'J4', 'A6', 'L7', 'F1', 'G12', 'D7', 'I6'],
  forests: ['E8', 'H5', 'B4', 'K9', 'C11', 'J2', 'F10', 'G3', 'A10', 'L3'],
  mountains: ['F8', 'G5', 'D10', 'I3', 'B8', 'K5', 'E9', 'H4', 'C7', 'J8'],
};

async function create(players: string[], options: Record<string, unknown>) {
  const r = await server.gql(
    `mutation($input: CreateGameInput!) { createGame(input: $input) { game { id status version events { type data } } seatTokens { seat token } } }`,
    { input: { type: TYPE, options, seats: players.map((seat) => ({ seat, name: seat.toUpperCase() })) } },
  );
  expect(r.errors).toBeUndefined();
  const { game, seatTokens } = r.data.createGame;
  const tokens: Record<string, string> = Object.fromEntries(seatTokens.map((t: { seat: string; token: string }) => [t.seat, t.token]));
  // The client keeps its own picture of the board by folding the events it receives.
  let state: TkState = threeKingdoms.initialState({ options, players });
  for (const e of game.events) state = threeKingdoms.evolve(state, e.data);
  return { id: game.id as string, tokens, state, status: game.status as string };
}

async function playToTheEnd(players: string[], options: Record<string, unknown>) {
  const game = await create(players, options);
  let steps = 0;
  const kinds = new Set<string>();
  for (;;) {
    const q = await server.gql(`query($id: ID!) { game(id: $id) { status awaiting { seat kind prompt } result { winners reason } } }`, { id: game.id });
    expect(q.errors).toBeUndefined();
    if (q.data.game.status === 'FINISHED') return { ...game, result: q.data.game.result, steps, kinds };
    expect(q.data.game.awaiting).toHaveLength(1);
    const { seat, kind } = q.data.game.awaiting[0];
    kinds.add(kind);
    const mine = await server.gql(`query($id: ID!) { game(id: $id) { legalCommands isYourTurn } }`, { id: game.id }, game.tokens[seat]);
    expect(mine.data.game.isYourTurn).toBe(true);
    const options = mine.data.game.legalCommands.filter((c: { type: string }) => !MATCH.includes(c.type));
    const command = pickCommand(game.state, seat, options, 8);
    const r = await server.gql(SUBMIT, { id: game.id, c: command }, game.tokens[seat]);
    expect(r.errors, JSON.stringify(command)).toBeUndefined();
    for (const e of r.data.submitCommand.events) game.state = threeKingdoms.evolve(game.state, e.data);
    steps++;
    expect(steps).toBeLessThan(3000);
  }
}

async function expectVerifiableExport(id: string) {
  const exported = await server.rest('GET', `/api/games/${id}/export`);
  expect(exported.status).toBe(200);
  const verified = await server.rest('POST', '/api/games/verify', exported.body);
  expect(verified.body).toMatchObject({ valid: true });
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
    expect(outside.errors?.[0].extensions).toMatchObject({ code: 'ILLEGAL_COMMAND', reason: 'L12 is outside your SW corner' });
    const malformed = await server.gql(SUBMIT, { id: game.id, c: { type: 'placeUnit', kind: 'dragon', square: 'A1' } }, game.tokens.wei);
    expect(malformed.errors?.[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('plays a whole two-player game to a result, and its export verifies', async () => {
    const game = await playToTheEnd(['wei', 'shu'], { terrain: LAYOUT, turnLimit: 40 });
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
    await expectVerifiableExport(game.id);
  }, 180_000);

  it('plays a whole three-player game to a result, and its export verifies', async () => {
    const game = await playToTheEnd(['wu', 'wei', 'shu'], { terrain: LAYOUT, turnLimit: 20 });
    const log = await server.rest('GET', `/api/games/${game.id}/events`);
    const out = log.body.events.filter((e: { type: string }) => e.type === 'PlayerOut').map((e: { data: { seat: string } }) => e.data.seat);
    // With three players, each loser was put out when their last General fell; the winner is the one left.
    expect(game.result.winners).toHaveLength(1);
    expect(out.sort()).toEqual(['wu', 'wei', 'shu'].filter((p) => p !== game.result.winners[0]).sort());
    expect(game.result.reason).toBeTruthy();
    expect(game.result.winners.length).toBeLessThanOrEqual(1);
    await expectVerifiableExport(game.id);
  }, 180_000);
});
