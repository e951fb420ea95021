/**
 * docs/examples/turn-bot.mjs, the worked example of waiting for one's turn by subscription:
 * two copies, one per seat of a Raid on Wuchao game, each run as its own node process as a
 * reader would run it, take turns until Cao's has sent six commands and resigns; Yuan's sees
 * the game end and stops.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';

const run = promisify(execFile);
const BOT = fileURLToPath(new URL('../../docs/examples/turn-bot.mjs', import.meta.url));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000 });
});
afterAll(async () => server?.close());

describe('the wait-for-your-turn example', () => {
  it('two bots take turns, each acting only when the game awaits it', async () => {
    const created = (await server.rest('POST', '/api/games', { type: 'raid-on-wuchao', seats: [{ seat: 'cao', name: 'Ann' }, { seat: 'yuan', name: 'Bo' }] })).body;
    const token = (seat: string) => created.seatTokens.find((t: { seat: string }) => t.seat === seat).token;
    const bot = (seat: string, max?: number) =>
      run(process.execPath, [BOT, server.url, created.game.id, token(seat), ...(max ? [String(max)] : [])], { cwd: process.cwd(), timeout: 60_000 });
    const [cao, yuan] = await Promise.all([bot('cao', 6), bot('yuan')]);
    const sent = (out: { stdout: string }) => JSON.parse(out.stdout.trim().split('\n').pop()!).sent as number;
    expect(sent(cao)).toBe(6);
    expect(sent(yuan)).toBeGreaterThanOrEqual(1);
    const game = (await server.rest('GET', `/api/games/${created.game.id}`)).body.game;
    expect(game.status).toBe('FINISHED');
    expect(game.result.winners).toEqual(['yuan']);
    const { events } = (await server.rest('GET', `/api/games/${created.game.id}/events`)).body;
    // Every command of Cao's bot came while the game awaited Cao: none was refused, six were stored.
    expect(events.filter((e: { seat: string | null; type: string }) => e.seat === 'cao' && e.type !== 'PlayerResigned').length).toBeGreaterThanOrEqual(6);
  }, 90_000);
});
