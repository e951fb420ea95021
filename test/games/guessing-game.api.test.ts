/**
 * A fifth hosted game is one module plus one line in the games list (CONTRIBUTING.md,
 * "Adding a game"). The proof: the tests' guessing game, with its schemas and presentation in
 * its own file (test/support/hosted-guessing-game.ts), is added to the hosted games and
 * nothing else; gameTypes presents it, its view has a generated GraphQL type, and a game is
 * played to the end through GraphQL and REST, each seat through one of them.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { games } from '../../src/domain/games.ts';
import { expectVerifiableExport, SUBMIT } from '../support/api-game.ts';
import { hostedGuessingGame } from '../support/hosted-guessing-game.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  // The one line: the hosted games and the new one.
  server = await startTestServer({ rateLimit: 100_000, games: [...games, hostedGuessingGame] });
});
afterAll(async () => server?.close());

const VIEW = `view { __typename ... on GuessingGameView { gameType phase round target first scores guessed guesses } }`;

describe('a fifth hosted game, added with one line', () => {
  it('gameTypes lists it with its presentation, on GraphQL and REST', async () => {
    const gql = await server.gql('{ gameTypes { id name seats description seatDetails { id name colour } } }');
    expect(gql.errors).toBeUndefined();
    const type = gql.data.gameTypes.find((t: { id: string }) => t.id === 'guessing-game');
    expect(type).toEqual({
      id: 'guessing-game',
      name: 'Guessing Game',
      seats: ['north', 'east', 'south'],
      description: expect.stringMatching(/secretly guess a number from 1 to 6/),
      seatDetails: [
        { id: 'north', name: 'North', colour: '#2b6cb0' },
        { id: 'east', name: 'East', colour: '#2f855a' },
        { id: 'south', name: 'South', colour: '#c53030' },
      ],
    });
    const rest = await server.rest('GET', '/api/game-types');
    expect(rest.body.gameTypes.find((t: { id: string }) => t.id === 'guessing-game')).toMatchObject({ description: type.description, seatDetails: type.seatDetails });
    expect(gql.data.gameTypes.map((t: { id: string }) => t.id)).toEqual(['raid-on-wuchao', 'three-kingdoms-combined-arms', 'chinese-warlords', 'warchon', 'guessing-game']);
  });

  it('is played to the end: north through GraphQL, east through REST, the view typed as GuessingGameView', async () => {
    const created = await server.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } seatTokens { seat token } } }`, {
      i: { type: 'guessing-game', options: { target: 5 }, seats: [{ seat: 'north', name: 'Ann' }, { seat: 'east', name: 'Bo' }] },
    });
    expect(created.errors).toBeUndefined();
    const id: string = created.data.createGame.game.id;
    const token: Record<string, string> = Object.fromEntries(created.data.createGame.seatTokens.map((t: { seat: string; token: string }) => [t.seat, t.token]));

    let rounds = 0;
    for (;;) {
      const q = await server.gql(`query($id: ID!) { game(id: $id) { status version awaiting { seat kind } ${VIEW} } }`, { id }, token.north);
      expect(q.errors).toBeUndefined();
      const { game } = q.data;
      expect(game.view).toMatchObject({ __typename: 'GuessingGameView', gameType: 'guessing-game', target: 5 });
      if (game.status === 'FINISHED') break;
      expect(rounds++).toBeLessThan(50);
      expect(game.view).toMatchObject({ phase: 'guessing', guessed: [] });
      expect(game.awaiting.map((p: { seat: string; kind: string }) => `${p.seat} ${p.kind}`).sort()).toEqual(['east COMMIT_NUMBER', 'north COMMIT_NUMBER']);

      // North guesses through GraphQL, a number from its legalCommands.
      const legal = await server.gql(`query($id: ID!) { game(id: $id) { legalCommands } }`, { id }, token.north);
      const guess = legal.data.game.legalCommands.find((c: { type: string; number?: number }) => c.type === 'guess' && c.number === 1 + (rounds % 3));
      const submitted = await server.gql(SUBMIT, { id, c: guess, v: game.version }, token.north);
      expect(submitted.errors).toBeUndefined();
      expect(submitted.data.submitCommand.events.map((e: { type: string }) => e.type)).toEqual(['GuessCommitted']);

      // East sees that north guessed, not the number (the view is the caller's); it answers through REST.
      const seen = await server.rest('GET', `/api/games/${id}`, undefined, token.east);
      expect(seen.status).toBe(200);
      expect(seen.body.game.view).toMatchObject({ phase: 'guessing', guessed: ['north'], guesses: { north: null } });
      const command = seen.body.game.legalCommands.find((c: { type: string; number?: number }) => c.type === 'guess' && c.number === 1);
      const answered = await server.rest('POST', `/api/games/${id}/commands`, { command, expectedVersion: seen.body.game.version }, token.east);
      expect(answered.status).toBe(200);
      expect(answered.body.events.map((e: { type: string }) => e.type).slice(0, 2)).toEqual(['GuessCommitted', 'DieRolled']);
    }

    const over = await server.rest('GET', `/api/games/${id}`);
    expect(over.body.game.status).toBe('FINISHED');
    expect(over.body.game.result.winners.length).toBeGreaterThan(0);
    expect(over.body.game.view.phase).toBe('over');
    expect(Math.max(...Object.values(over.body.game.view.scores as Record<string, number>))).toBeGreaterThanOrEqual(5);

    // Its log is what its published event schema says, and the finished game verifies.
    const type = (await server.rest('GET', '/api/game-types')).body.gameTypes.find((t: { id: string }) => t.id === 'guessing-game');
    const validate = new Ajv2020({ discriminator: true, strict: false }).compile(type.eventSchema);
    const { body } = await server.rest('GET', `/api/games/${id}/events`);
    expect(body.events.map((e: { type: string }) => e.type)).toContain('DieRolled');
    for (const e of body.events) expect(validate(e.data), JSON.stringify(e)).toBe(true);
    await expectVerifiableExport(server, id);
  });
});
