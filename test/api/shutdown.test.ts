/**
 * SIGTERM stops the service gracefully: a request in flight finishes (within the grace
 * period), WebSocket clients are told why they are closed (1001 "server shutting down"),
 * and one that does not answer is cut, so the process exits as soon as everything is closed. Runs the real entry point, src/main.ts, as a child process on the test database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { databaseUrl } from '../support/server.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let child: ChildProcess | undefined;
afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
});

/** Starts src/main.ts on a free port; resolves with its base URL once it listens. */
function startService(): Promise<{ url: string; exited: Promise<number | null>; log: string[] }> {
  const log: string[] = [];
  child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl(), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'test', MAX_EVENT_LOOP_DELAY: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start: ${log.join('\n')}`)), 60_000);
    const read = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        log.push(line);
        const url = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
        if (url) {
          clearTimeout(timer);
          resolve({ url, exited, log });
        }
      }
    };
    child!.stdout!.on('data', read);
    child!.stderr!.on('data', read);
    child!.on('exit', (code) => reject(new Error(`the service exited (${code}): ${log.join('\n')}`)));
  });
}

describe('SIGTERM', () => {
  it('lets a request in flight finish and closes WebSockets with 1001 and a reason', async () => {
    const { url, exited, log } = await startService();

    // A subscriber, connected and acknowledged.
    const socket = new WebSocket(url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
    const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    await new Promise<void>((resolve) => {
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
      socket.on('message', (m) => JSON.parse(m.toString()).type === 'connection_ack' && resolve());
    });

    // A client that opens a WebSocket and never reads or answers again (it would hold the
    // shutdown until the grace period ends, and close-with-grace then exits with 1).
    const deaf = connect(Number(new URL(url).port), '127.0.0.1');
    deaf.on('error', () => {});
    deaf.write(['GET /graphql HTTP/1.1', 'Host: 127.0.0.1', 'Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Protocol: graphql-transport-ws', '', ''].join('\r\n'));
    await new Promise<void>((resolve) => deaf.once('data', () => resolve())); // 101 Switching Protocols
    deaf.pause();

    // A request in flight: its body arrives in two parts, the second after SIGTERM.
    const body = JSON.stringify({ type: 'guessing-game-is-not-hosted-here', seats: [] });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${url}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        child!.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 500);
      }, 200);
    });

    const { status, text } = await answer;
    // The request ran to its end: the application answered it (an unknown type is its 400).
    expect(status, text).toBe(400);
    expect(JSON.parse(text).error.message).toMatch(/Unknown game type/);
    expect(await closed).toEqual({ code: 1001, reason: 'server shutting down' });
    // Everything closed, the process exits by itself: not killed by the grace period's timeout.
    expect(await exited, log.join('\n')).toBe(0);
    expect(log.join('\n')).not.toContain('killed by timeout');
    // Nothing new is accepted once it stops.
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});
