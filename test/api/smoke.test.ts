import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('a game through GraphQL', () => {
  it('creates a game, takes commands from the awaited seats, and finishes with a verifiable export', async () => {
    const created = await server.gql(
      `mutation($input: CreateGameInput!) { createGame(input: $input) { game { id status version seedCommitment seats { id name } } seatTokens { seat token } } }`,
      { input: { type: 'guessing-game', options: { target: 3 }, seats: [{ seat: 'north', name: 'Ann' }, { seat: 'east', name: 'Bo' }] } },
    );
    expect(created.errors).toBeUndefined();
    const { game, seatTokens } = created.data.createGame;
    expect(game.status).toBe('ACTIVE');
    expect(game.version).toBe(1);
    const token = Object.fromEntries(seatTokens.map((t: { seat: string; token: string }) => [t.seat, t.token]));
    for (let i = 0; i < 50; i++) {
      const q = await server.gql(`query($id: ID!) { game(id: $id) { status awaiting { seat kind } } }`, { id: game.id });
      if (q.data.game.status === 'FINISHED') break;
      for (const seat of new Set<string>(q.data.game.awaiting.map((p: { seat: string }) => p.seat))) {
        const r = await server.gql(
          `mutation($id: ID!, $c: JSON!) { submitCommand(gameId: $id, command: $c) { events { version type } } }`,
          { id: game.id, c: { type: 'guess', number: 1 } },
          token[seat],
        );
        expect(r.errors).toBeUndefined();
      }
    }
    const done = await server.gql(`query($id: ID!) { game(id: $id) { status result { winners reason } seed } }`, { id: game.id });
    expect(done.data.game.status).toBe('FINISHED');
    expect(done.data.game.seed).toMatch(/^[0-9a-f]{64}$/);
    const exported = await server.rest('GET', `/api/games/${game.id}/export`);
    expect(exported.status).toBe(200);
    const verified = await server.rest('POST', '/api/games/verify', exported.body);
    expect(verified.body).toMatchObject({ valid: true });
  });
});
