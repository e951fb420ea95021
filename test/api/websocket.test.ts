/**
 * The WebSocket channel is bounded and says why it closes: a bad token closes with 4403 and
 * a reason; subscriptions are capped per connection and per token; a client that does not
 * read is closed as a slow consumer with 1008 and a reason; a player token revoked on one
 * process ends its subscriptions on another with 4403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { collect, createGuessingGame, SUBMIT, wsClient } from '../support/client.ts';
import { longGuessingGame } from '../support/long-game.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000, websocket: { perConnection: 3, perToken: 4, slowConsumerMs: 1_000 } });
});
afterAll(async () => server?.close());

const SUBSCRIBE = 'subscription($id: ID!, $after: Int) { gameEvents(gameId: $id, afterVersion: $after) { version type data } }';

/** A raw graphql-transport-ws connection, to see exactly what the server sends and how it closes. */
function raw(init: Record<string, unknown> = {}, on: TestServer = server) {
  const socket = new WebSocket(on.url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
  const messages: { type: string; id?: string; payload?: any }[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  const opened = new Promise<void>((resolve, reject) => {
    socket.on('open', () => {
      socket.send(JSON.stringify({ type: 'connection_init', payload: init }));
      resolve();
    });
    socket.on('error', reject);
  });
  socket.on('message', (m) => messages.push(JSON.parse(m.toString())));
  const waitFor = async (test: () => boolean, ms = 10_000) => {
    for (const start = Date.now(); !test(); ) {
      if (Date.now() - start > ms) throw new Error(`timed out; got ${JSON.stringify(messages.slice(-3))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const subscribe = (id: string, variables: Record<string, unknown>) => socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query: SUBSCRIBE, variables } }));
  return { socket, messages, closed, opened, waitFor, subscribe };
}

describe('the WebSocket channel', () => {
  it('ends a revoked player token\'s subscriptions on every process with 4403, before another event reaches them', async () => {
    const other = await startTestServer({ rateLimit: 100_000 });
    try {
      const registered = await server.gql(`mutation { registerPlayer(input: { name: "Rae" }) { token } }`);
      const main = registered.data.registerPlayer.token as string;
      const laptop = (await server.gql(`mutation { createPlayerToken(name: "laptop") { id token } }`, {}, main)).data.createPlayerToken as { id: string; token: string };
      const { id, tokens } = await createGuessingGame(server);
      // On the other process: a subscription with the laptop's token, and one with the main token.
      const revoked = raw({ authorization: `Bearer ${laptop.token}` }, other);
      const kept = raw({ authorization: `Bearer ${main}` }, other);
      for (const c of [revoked, kept]) {
        await c.waitFor(() => c.messages.some((m) => m.type === 'connection_ack'));
        c.subscribe('1', { id, after: 0 });
        await c.waitFor(() => c.messages.some((m) => m.type === 'next'));
      }
      const revoke = await server.gql(`mutation($id: ID!) { revokePlayerToken(id: $id) }`, { id: laptop.id }, main);
      expect(revoke.errors).toBeUndefined();
      expect(revoke.data.revokePlayerToken).toBe(true);
      const before = revoked.messages.filter((m) => m.type === 'next').length;
      // Events committed after the revocation never reach the revoked token's subscription.
      await server.gql(SUBMIT, { id, c: { type: 'guess', number: 1 } }, tokens.north);
      await server.gql(SUBMIT, { id, c: { type: 'guess', number: 1 } }, tokens.east);
      const closed = await Promise.race([revoked.closed, new Promise((r) => setTimeout(() => r('still open'), 10_000))]);
      expect(closed).toEqual({ code: 4403, reason: 'Forbidden: this token was revoked' });
      expect(revoked.messages.filter((m) => m.type === 'next')).toHaveLength(before);
      // The player's other token is not touched.
      await kept.waitFor(() => kept.messages.some((m) => m.type === 'next' && m.payload.data.gameEvents.type === 'DieRolled'));
      expect(kept.socket.readyState).toBe(WebSocket.OPEN);
      kept.socket.close();
    } finally {
      await other.close();
    }
  });

  it('closes a connection with an unknown token with 4403 and the reason, without a connection_error', async () => {
    const c = raw({ authorization: 'Bearer not-a-token' });
    const { code, reason } = await c.closed;
    expect(code).toBe(4403);
    expect(reason).toMatch(/Forbidden: This token is not known/);
    expect(c.messages.map((m) => m.type)).not.toContain('connection_error');
  });

  it('caps subscriptions per connection: the one over the cap gets RATE_LIMITED and the connection stays', async () => {
    const { id } = await createGuessingGame(server);
    const c = raw();
    await c.opened;
    await c.waitFor(() => c.messages.some((m) => m.type === 'connection_ack'));
    for (const n of ['1', '2', '3', '4']) c.subscribe(n, { id, after: 0 });
    await c.waitFor(() => c.messages.some((m) => m.id === '4' && m.type === 'error'));
    const refused = c.messages.find((m) => m.id === '4')!;
    expect(refused.payload[0].extensions.code).toBe('RATE_LIMITED');
    expect(refused.payload[0].message).toMatch(/3 open subscriptions on one connection/);
    await c.waitFor(() => ['1', '2', '3'].every((n) => c.messages.some((m) => m.id === n && m.type === 'next')));
    // Unsubscribing frees a place.
    c.socket.send(JSON.stringify({ id: '1', type: 'complete' }));
    await new Promise((r) => setTimeout(r, 200));
    c.subscribe('5', { id, after: 0 });
    await c.waitFor(() => c.messages.some((m) => m.id === '5' && m.type === 'next'));
    expect(c.socket.readyState).toBe(WebSocket.OPEN);
    c.socket.close();
  });

  it('caps subscriptions per token across connections', async () => {
    const { id, tokens } = await createGuessingGame(server);
    const a = wsClient(server, tokens.north);
    const b = wsClient(server, tokens.north);
    const feeds = [collect(a, id, 0), collect(a, id, 0), collect(b, id, 0), collect(b, id, 0)];
    await Promise.all(feeds.map((f) => f.until(1)));
    const over = collect(b, id, 0);
    await over.until(1).catch(() => {});
    expect(JSON.stringify(over.errors)).toMatch(/RATE_LIMITED/);
    expect(JSON.stringify(over.errors)).toMatch(/4 open subscriptions per token/);
    // Another token is counted on its own.
    const c = wsClient(server, tokens.east);
    const other = collect(c, id, 0);
    await other.until(1);
    expect(other.errors).toEqual([]);
    await Promise.all([a.dispose(), b.dispose(), c.dispose()]);
  });

  it('closes a client that does not read with 1008 and a reason', async () => {
    // Enough unread events to fill the kernel's buffers (a few MiB on loopback) behind ws.
    const roomy = await startTestServer({ rateLimit: 100_000, websocket: { perConnection: 30, slowConsumerMs: 1_000 } });
    try {
      const id = await longGuessingGame(roomy.core, 3_000);
      const c = raw({}, roomy);
      await c.opened;
      await c.waitFor(() => c.messages.some((m) => m.type === 'connection_ack'));
      c.socket.pause(); // reads nothing more: the server's writes back up
      for (let n = 0; n < 30; n++) c.subscribe(String(n), { id, after: 0 });
      const sockets = roomy.app.websocketServer.clients;
      await c.waitFor(() => [...sockets].every((s) => s.readyState !== WebSocket.OPEN), 60_000);
      c.socket.resume();
      const { code, reason } = await c.closed;
      expect(code).toBe(1008);
      expect(reason).toMatch(/slow consumer/);
      // What the feeds held is let go: no subscription stays open on the server.
      await c.waitFor(() => sockets.size === 0, 10_000);
    } finally {
      await roomy.close();
    }
  });
});
