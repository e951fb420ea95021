import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuessingGame, SUBMIT } from '../support/client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000 });
});
afterAll(async () => server?.close());

const guess = (number: number) => ({ type: 'guess', number });

describe('submitting commands', () => {
  it('lets exactly one of 50 concurrent commands pinned to the same version win; the others learn the current version', async () => {
    const { id, tokens } = await createGuessingGame(server);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => server.gql(SUBMIT, { id, c: { type: i % 2 ? 'offerDraw' : 'resign' }, v: 1 }, tokens.north)));
    const ok = results.filter((r) => !r.errors);
    expect(ok).toHaveLength(1);
    // A resignation appends the game's end too (version 3); a draw offer only itself (2).
    const reached = ok[0]!.data.submitCommand.game.version;
    for (const r of results.filter((r) => r.errors)) {
      expect(r.errors![0].extensions).toMatchObject({ code: 'VERSION_CONFLICT', currentVersion: reached });
    }
    const log = await server.rest('GET', `/api/games/${id}/events`);
    expect(log.body.events.map((e: { version: number }) => e.version)).toEqual(Array.from({ length: reached }, (_, i) => i + 1));
  });

  it('retries a command with no pinned version against fresh state when another seat wins the race', async () => {
    const { id, tokens } = await createGuessingGame(server);
    const [a, b] = await Promise.all([server.gql(SUBMIT, { id, c: guess(2) }, tokens.north), server.gql(SUBMIT, { id, c: guess(3) }, tokens.east)]);
    expect(a.errors).toBeUndefined();
    expect(b.errors).toBeUndefined();
    const log = await server.rest('GET', `/api/games/${id}/events`);
    // setup, two guesses, and the roll the second guess triggered: consecutive, each once
    expect(log.body.events.map((e: { version: number; type: string }) => `${e.version}:${e.type}`)).toEqual(['1:GameStarted', '2:GuessCommitted', '3:GuessCommitted', '4:DieRolled']);
  });

  it('returns the first outcome for a retried idempotency key and stores nothing new', async () => {
    const { id, tokens } = await createGuessingGame(server);
    const first = await server.gql(SUBMIT, { id, c: guess(4), k: 'retry-1' }, tokens.north);
    const again = await server.gql(SUBMIT, { id, c: guess(4), k: 'retry-1' }, tokens.north);
    expect(again.errors).toBeUndefined();
    expect(again.data.submitCommand.events).toEqual(first.data.submitCommand.events);
    const viaHeader = await server.rest('POST', `/api/games/${id}/commands`, { command: guess(4) }, tokens.north, { 'idempotency-key': 'retry-1' });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.body.events.map(({ at: _at, ...e }: { at: string }) => e)).toEqual(first.data.submitCommand.events);
    const game = await server.rest('GET', `/api/games/${id}`);
    expect(game.body.game.version).toBe(2);
  });

  it('stores a key used concurrently only once', async () => {
    for (let round = 0; round < 5; round++) {
      const { id, tokens } = await createGuessingGame(server);
      const results = await Promise.all(Array.from({ length: 10 }, () => server.gql(SUBMIT, { id, c: guess(1), k: 'race' }, tokens.east)));
      expect(results.map((r) => r.errors?.[0]?.message ?? 'ok')).toEqual(results.map(() => 'ok'));
      for (const r of results) expect(r.data.submitCommand.events).toEqual(results[0]!.data.submitCommand.events);
      expect((await server.rest('GET', `/api/games/${id}`)).body.game.version).toBe(2);
    }
  });

  it('answers in the caller\'s view: a secret guess is hidden from the other seat and spectators until revealed', async () => {
    const { id, tokens } = await createGuessingGame(server);
    const mine = await server.gql(SUBMIT, { id, c: guess(5) }, tokens.north);
    expect(mine.data.submitCommand.events[0].data.number).toBe(5);
    for (const token of [tokens.east, undefined]) {
      const log = await server.rest('GET', `/api/games/${id}/events`, undefined, token);
      expect(log.body.events[1].data.number).toBeNull();
      const q = await server.gql(`query($id: ID!) { game(id: $id) { events { data } view { ... on GenericView { state } } } }`, { id }, token);
      expect(q.data.game.events[1].data.number).toBeNull();
      expect(q.data.game.view.state.guesses.north).toBeNull();
      const exported = await server.rest('GET', `/api/games/${id}/export`, undefined, token);
      expect(exported.body.events[1].data.number).toBeNull();
      expect(exported.body.game.seed).toBeNull();
      expect(exported.body.commands).toBeNull();
    }
    await server.gql(SUBMIT, { id, c: guess(1) }, tokens.east);
    const after = await server.rest('GET', `/api/games/${id}/events`, undefined, tokens.east);
    expect(after.body.events[1].data.number).toBe(5);
  });

  it('lists legal commands for the caller\'s seat only, each accepted as it is', async () => {
    const { id, tokens } = await createGuessingGame(server);
    const q = await server.gql(`query($id: ID!) { game(id: $id) { legalCommands isYourTurn yourSeat seats { id isYou mustAct } } }`, { id }, tokens.north);
    expect(q.data.game).toMatchObject({ isYourTurn: true, yourSeat: 'north' });
    expect(q.data.game.seats).toEqual([{ id: 'north', isYou: true, mustAct: true }, { id: 'east', isYou: false, mustAct: true }]);
    expect(q.data.game.legalCommands).toContainEqual(guess(6));
    const spectator = await server.gql(`query($id: ID!) { game(id: $id) { legalCommands } }`, { id });
    expect(spectator.data.game.legalCommands).toEqual([]);
    const r = await server.gql(SUBMIT, { id, c: q.data.game.legalCommands[0] }, tokens.north);
    expect(r.errors).toBeUndefined();
  });

  it('replays the view after any earlier version', async () => {
    const { id, tokens } = await createGuessingGame(server);
    await server.gql(SUBMIT, { id, c: guess(2) }, tokens.north);
    await server.gql(SUBMIT, { id, c: guess(2) }, tokens.east);
    const q = await server.gql(`query($id: ID!) { game(id: $id) { v1: view(atVersion: 1) { ... on GenericView { state } } now: view { ... on GenericView { state } } } }`, { id });
    expect(q.data.game.v1.state.round).toBe(1);
    expect(q.data.game.now.state.round).toBe(2);
    const rest = await server.rest('GET', `/api/games/${id}/view?atVersion=2`, undefined, tokens.north);
    expect(rest.body).toMatchObject({ version: 2, view: { guesses: { north: 2 } } });
  });

  it('resigns, finishes the game, publishes the seed and refuses further commands with GAME_OVER', async () => {
    const { id, tokens } = await createGuessingGame(server);
    const r = await server.gql(`mutation($id: ID!) { resign(gameId: $id) { status result { winners reason } seed seedCommitment } }`, { id }, tokens.east);
    expect(r.data.resign).toMatchObject({ status: 'FINISHED', result: { winners: ['north'] } });
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(r.data.resign.seed).digest('hex')).toBe(r.data.resign.seedCommitment);
    const late = await server.gql(SUBMIT, { id, c: guess(1) }, tokens.north);
    expect(late.errors![0].extensions.code).toBe('GAME_OVER');
  });

  it('resigns over REST too', async () => {
    const { id, tokens } = await createGuessingGame(server);
    const r = await server.rest('POST', `/api/games/${id}/resign`, undefined, tokens.north);
    expect(r.status).toBe(200);
    expect(r.body.game).toMatchObject({ status: 'FINISHED', result: { winners: ['east'], reason: 'north resigned' } });
    expect(r.body.events).toMatchObject([
      { type: 'PlayerResigned', seat: 'north' },
      { type: 'PlayerOut', seat: 'north', data: { seat: 'north' } },
      { type: 'GameEnded', seat: 'north', data: { winners: ['east'], reason: 'north resigned' } },
    ]);
    expect((await server.rest('POST', `/api/games/${id}/resign`, undefined, tokens.east)).body.error.code).toBe('GAME_OVER');
  });

  it('lists (public) games with cursor pagination, filtered, and with a token only that token\'s game', async () => {
    const a = await createGuessingGame(server, undefined, undefined, 'PUBLIC');
    await createGuessingGame(server, undefined, undefined, 'PUBLIC');
    const page1 = await server.gql(`{ games(first: 1, filter: { type: "guessing-game", status: ACTIVE }) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`);
    expect(page1.data.games.edges).toHaveLength(1);
    expect(page1.data.games.pageInfo.hasNextPage).toBe(true);
    const page2 = await server.gql(`query($after: String) { games(first: 1, after: $after) { nodes { id } } }`, { after: page1.data.games.pageInfo.endCursor });
    expect(page2.data.games.nodes[0].id).not.toBe(page1.data.games.edges[0].node.id);
    const mine = await server.gql(`{ games { nodes { id isYourTurn yourSeat } } }`, undefined, a.tokens.north);
    expect(mine.data.games.nodes).toEqual([{ id: a.id, isYourTurn: true, yourSeat: 'north' }]);
    const rest = await server.rest('GET', '/api/games?first=2&type=guessing-game');
    expect(rest.body.games).toHaveLength(2);
  });
});
