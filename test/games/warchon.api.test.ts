/**
 * Whole games of Warchon through GraphQL, as clients play them: each command is picked
 * from an awaited seat's legalCommands until the game has a result; then the export
 * verifies. Secret numbers are awaited from both seats at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { warchon } from '../../src/domain/warchon/index.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createApiGame, expectVerifiableExport, lcg, playToTheEnd, SUBMIT } from '../support/api-game.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000 });
});
afterAll(async () => server?.close());

const TYPE = 'warchon';

const create = (options: Record<string, unknown> = {}) => createApiGame(server, warchon, ['azuthkan', 'celestine'], options);

/** A random client that mostly moves; either awaited seat may act when both are asked. */
async function playGame(options: Record<string, unknown>, seedNumber: number) {
  const game = await create(options);
  const rnd = lcg(seedNumber);
  const played = await playToTheEnd(
    server,
    warchon,
    game,
    ({ commands }) => {
      const moves = commands.filter((c) => c.type === 'moveUnit');
      return moves.length && rnd() < 0.8 ? moves[Math.floor(rnd() * moves.length)]! : commands[Math.floor(rnd() * commands.length)]!;
    },
    { pickSeat: (awaiting) => awaiting[Math.floor(rnd() * awaiting.length)]! },
  );
  const view = await server.gql(`query($id: ID!) { game(id: $id) { view { __typename } } }`, { id: game.id });
  expect(view.data.game.view.__typename).toBe('WarchonView');
  return { ...game, ...played };
}

describe('Warchon through the API', () => {
  it('is listed with its seats, player counts and schemas', async () => {
    const r = await server.gql(`{ gameTypes { id name seats minPlayers maxPlayers optionsSchema commandSchema } }`);
    const type = r.data.gameTypes.find((t: { id: string }) => t.id === TYPE);
    expect(type).toMatchObject({ name: 'Warchon', seats: ['azuthkan', 'celestine'], minPlayers: 2, maxPlayers: 2 });
    expect(type.optionsSchema.properties).toHaveProperty('numbers');
    expect(type.optionsSchema.properties).toHaveProperty('roster');
  });

  it('refuses illegal, out-of-turn and malformed commands with a reason', async () => {
    const game = await create();
    const wrongSeat = await server.gql(SUBMIT, { id: game.id, c: { type: 'placeUnit', unit: 'celestine-paladins-1', spread: 1 } }, game.tokens.celestine);
    expect(wrongSeat.errors?.[0].extensions.code).toBe('NOT_YOUR_TURN');
    const outside = await server.gql(SUBMIT, { id: game.id, c: { type: 'placeUnit', unit: 'baphite-swarm-1', spread: 1 } }, game.tokens.azuthkan);
    expect(outside.errors?.[0].extensions).toMatchObject({ code: 'ILLEGAL_COMMAND', reason: expect.stringContaining('spreads 5, 6, 7') });
    const malformed = await server.gql(SUBMIT, { id: game.id, c: { type: 'placeUnit', unit: 'baphite-swarm-1' } }, game.tokens.azuthkan);
    expect(malformed.errors?.[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('refuses options that make setup impossible, saying why', async () => {
    const unit = { name: 'Titan', army: 'azuthkan', count: 1, lines: [{ size: 9, movement: 1, as: 1, ds: 1 }] };
    const roster = [{ ...unit, key: 'titan' }, { ...unit, key: 'squire', name: 'Squire', army: 'celestine', lines: [{ size: 1, movement: 1, as: 1, ds: 1 }] }];
    const r = await server.gql(
      `mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } } }`,
      { i: { type: TYPE, options: { roster }, seats: [{ seat: 'azuthkan', name: 'a' }, { seat: 'celestine', name: 'c' }] } },
    );
    expect(r.errors?.[0].extensions.code).toBe('BAD_REQUEST');
    expect(r.errors?.[0].message).toContain('These options cannot set up a game: Titan (Size 9) is bigger than the Capacity of every Azuthkan setup spread (at most 8)');
  });

  it('keeps Azuthkan\'s setup hidden from Celestine and spectators', async () => {
    const game = await create();
    const placed = await server.gql(SUBMIT, { id: game.id, c: { type: 'placeUnit', unit: 'deathknoll-ogres-1', spread: 7 } }, game.tokens.azuthkan);
    expect(placed.errors).toBeUndefined();
    for (const token of [game.tokens.celestine, undefined]) {
      const seen = await server.gql(`query($id: ID!) { game(id: $id) { events { type data } } }`, { id: game.id }, token);
      expect(seen.errors).toBeUndefined();
      expect(JSON.stringify(seen.data)).not.toContain('deathknoll');
      const rest = await server.rest('GET', `/api/games/${game.id}`, undefined, token);
      expect(rest.status).toBe(200);
      expect(JSON.stringify(rest.body)).not.toContain('deathknoll');
      expect(rest.body.game.view.units).toEqual([expect.objectContaining({ id: 'azuthkan-1', spread: 7, known: false, name: null })]);
    }
    const own = await server.rest('GET', `/api/games/${game.id}`, undefined, game.tokens.azuthkan);
    expect(own.body.game.view.units).toEqual([expect.objectContaining({ id: 'azuthkan-1', known: true, name: 'Deathknoll Ogres' })]);
  });

  it('plays whole games from createGame to the result, with secret or server numbers, and their exports verify', async () => {
    for (const [options, seed] of [[{ turnLimit: 40 }, 1], [{ numbers: 'server', turnLimit: 40 }, 2]] as const) {
      const game = await playGame(options, seed);
      expect(game.result.reason).toBeTruthy();
      expect(game.kinds.has('SETUP') && game.kinds.has('MOVE')).toBe(true);
      if (!('numbers' in options)) expect(game.kinds.has('COMMIT_NUMBER')).toBe(true);
      await expectVerifiableExport(server, game.id);
    }
  });
});
