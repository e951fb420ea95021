/**
 * A request's bearer token is looked up once, whoever asks for the actor (the rate limiter,
 * the refusal of unknown tokens, the resolvers): one player_tokens read per request. The
 * HTTP server is built from a core on the memory ports, with a player store that counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.ts';
import { createCore } from '../../src/app/core.ts';
import { memoryPorts } from '../../src/app/memory/index.ts';
import { guessingGame } from '../support/guessing-game.ts';

const ports = memoryPorts();
let reads = 0;
const playerForToken = ports.players.playerForToken.bind(ports.players);
ports.players.playerForToken = (hash) => {
  reads++;
  return playerForToken(hash);
};
const core = createCore(ports, { games: [guessingGame] });
let app: Awaited<ReturnType<typeof buildApp>>;
beforeAll(async () => {
  app = await buildApp(core, { logger: false });
});
afterAll(async () => app?.close());

describe('authentication', () => {
  it('reads a player token once per request, over GraphQL and REST', async () => {
    const { token } = await core.players.register({ name: 'Ada' }, { address: '127.0.0.1' });
    const authorization = `Bearer ${token}`;
    reads = 0;
    const gql = await app.inject({ method: 'POST', url: '/graphql', headers: { authorization }, payload: { query: '{ me { name } games(first: 5) { nodes { id } } }' } });
    expect(gql.json().data.me).toEqual({ name: 'Ada' });
    expect(reads).toBe(1);
    reads = 0;
    const rest = await app.inject({ method: 'GET', url: '/api/me', headers: { authorization } });
    expect(rest.statusCode).toBe(200);
    expect(reads).toBe(1);
  });
});
