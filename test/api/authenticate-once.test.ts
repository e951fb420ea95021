/**
 * A request's bearer token is looked up once, whoever asks for the actor (the rate limiter,
 * the refusal of unknown tokens, the resolvers): at most one player_tokens read per request,
 * and none while the process holds the token (src/app/players.ts, PLAYER_TOKEN_TRUST_MS),
 * until it is revoked on any process. The HTTP server is built from a core on the memory
 * ports, with a player store that counts; a second core on the same data is another process.
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
    // Held by this process since the first request: no read.
    expect(reads).toBe(0);
  });

  it('refuses a held player token as soon as another process revoked it', async () => {
    const other = createCore(memoryPorts(ports.data), { games: [guessingGame] });
    const { player, token } = await core.players.register({ name: 'Lin' }, { address: '127.0.0.1' });
    const second = await core.players.createToken({ kind: 'player', playerId: player.id }, 'second');
    const me = (t: string) => app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${t}` } });
    expect((await me(second.token)).statusCode).toBe(200);
    reads = 0;
    expect((await me(second.token)).statusCode).toBe(200);
    expect(reads).toBe(0); // held
    expect(await other.players.revokeToken({ kind: 'player', playerId: player.id }, second.id)).toBe(true);
    expect((await me(second.token)).statusCode).toBe(401);
    expect((await me(token)).statusCode).toBe(200);
  });
});
