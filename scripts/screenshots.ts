/**
 * npm run screenshots: writes docs/screenshots/<game>-desktop.png and -phone.png, each
 * game page in mid-game, plus the lobby (signed out, and signed in with my games and open
 * games), the account settings, a game waiting for players with its invite link, and the
 * page the invite link opens. It runs its own server on a throw-away embedded
 * PostgreSQL (or DATABASE_URL), plays a few commands through GraphQL to reach a position,
 * and opens each page in the OS's Chromium.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { games } from '../src/domain/games.ts';
import { openDatabase } from '../src/persistence/database.ts';
import { startEmbedded } from '../src/persistence/embedded.ts';
import { migrate } from '../src/persistence/migrate.ts';
import { openService } from '../src/server.ts';
import { launchChromium } from '../test/web/browser.ts';

const out = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
mkdirSync(out, { recursive: true });
await build({ configFile: fileURLToPath(new URL('../web/vite.config.ts', import.meta.url)), logLevel: 'warn' });

let url = process.env.DATABASE_URL;
let stop: (() => Promise<void>) | undefined;
const folder = mkdtempSync(join(tmpdir(), 'wargame-shots-'));
if (!url) ({ url, stop } = await startEmbedded({ dataDir: join(folder, 'data'), persistent: false }));
await migrate(url);
const database = await openDatabase(url);
// The service as src/server.ts composes it (the core, then HTTP over it); no workers: no bots here.
const service = await openService({ database, games, registrationsPerMinute: 1000, http: { logger: false, rateLimit: 100_000, maxEventLoopDelay: 0 } }); // no saturation guard: a busy machine only makes it slower
const app = service.http!;
const base = await app.listen({ port: 0, host: '127.0.0.1' });

async function gql(query: string, variables: Record<string, unknown>, token?: string) {
  const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as { data: any; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

type Command = { type: string; [k: string]: unknown };
/** Creates a game and plays `steps` commands, preferring moves and placements, deterministically. */
async function position(type: string, seats: string[], steps: number, prefer: (c: Command) => boolean, options?: unknown) {
  const names = ['Ann', 'Bo', 'Cy', 'Di'];
  const created = await gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } seatTokens { seat token } } }`, { i: { type, options, seats: seats.map((seat, i) => ({ seat, name: names[i] })) } });
  const id: string = created.createGame.game.id;
  const tokens: Record<string, string> = Object.fromEntries(created.createGame.seatTokens.map((t: { seat: string; token: string }) => [t.seat, t.token]));
  let r = 11;
  for (let i = 0; i < steps; i++) {
    const g = (await gql(`query($id: ID!) { game(id: $id) { status awaiting { seat } } }`, { id })).game;
    if (g.status === 'FINISHED') break;
    const seat = g.awaiting[0].seat;
    const all: Command[] = (await gql(`query($id: ID!) { game(id: $id) { legalCommands } }`, { id }, tokens[seat])).game.legalCommands;
    const playable = all.filter((c) => !['resign', 'offerDraw', 'acceptDraw', 'declineDraw'].includes(c.type));
    const pool = playable.filter(prefer).length && i % 4 ? playable.filter(prefer) : playable;
    r = (r * 1103515245 + 12345) % 2147483648;
    await gql(`mutation($id: ID!, $c: JSON!) { submitCommand(gameId: $id, command: $c) { game { version } } }`, { id, c: pool[r % pool.length] }, tokens[seat]);
  }
  return { id, seat: seats[0]!, token: tokens[seats[0]!]! };
}

const pages = [
  { name: 'raid-on-wuchao', ...(await position('raid-on-wuchao', ['cao', 'yuan'], 30, (c) => c.type === 'move' || c.type === 'placeUnit')) },
  { name: 'three-kingdoms-combined-arms', ...(await position('three-kingdoms-combined-arms', ['wei', 'shu'], 44, (c) => c.type === 'move' || c.type === 'placeUnit')) },
  { name: 'chinese-warlords', ...(await position('chinese-warlords', ['red', 'blue'], 16, (c) => c.type === 'move' || c.type === 'recruit')) },
  { name: 'warchon', ...(await position('warchon', ['azuthkan', 'celestine'], 14, (c) => c.type === 'moveUnit' || c.type === 'placeUnit')) },
];

// The lobby's parts: two players; Bo's public game waits for a player, Ann plays a bot (it
// waits for her), and Ann's private game has an open seat and its invite code.
async function registerPlayer(name: string, email?: string) {
  const r = await gql(`mutation($i: RegisterPlayerInput!) { registerPlayer(input: $i) { token player { id name } } }`, { i: { name, email } });
  return { token: r.registerPlayer.token as string, id: r.registerPlayer.player.id as string, name };
}
const ann = await registerPlayer('Ann', 'ann@example.org');
const bo = await registerPlayer('Bo');
const CREATE = `mutation($i: CreateGameInput!) { createGame(input: $i) { game { id type } inviteCode } }`;
await gql(CREATE, { i: { type: 'warchon', seats: [{ seat: 'azuthkan', me: true }, { seat: 'celestine', open: true }], visibility: 'PUBLIC' } }, bo.token);
await gql(CREATE, { i: { type: 'chinese-warlords', seats: [{ seat: 'red', me: true }, { seat: 'blue', open: true }, { seat: 'green', bot: 'random' }], visibility: 'PUBLIC' } }, bo.token);
await gql(CREATE, { i: { type: 'raid-on-wuchao', seats: [{ seat: 'cao', me: true }, { seat: 'yuan', bot: 'random' }] } }, ann.token);
const privateGame = (await gql(CREATE, { i: { type: 'three-kingdoms-combined-arms', seats: [{ seat: 'wei', me: true }, { seat: 'shu', open: true }], clock: { perMove: 86400, onTimeout: 'BOT' } } }, ann.token)).createGame;
const invite = `${base}/join/${privateGame.inviteCode}?game=${privateGame.game.id}`;
await new Promise((r) => setTimeout(r, 1500)); // the bot sets up
/** What the page keeps in localStorage for a signed-in player (and the invite code it was shown). */
const signedInAs = (p: { token: string; id: string; name: string }, held: Record<string, unknown> = {}) => ({
  'wargame.player.v1': JSON.stringify(p),
  'wargame.games.v1': JSON.stringify(held),
});

const browser = await launchChromium();
try {
  for (const [size, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]] as const) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    const page = await context.newPage();
    for (const p of pages) {
      await page.goto(`${base}/games/${p.id}#seat=${p.seat}&token=${p.token}`);
      await page.locator('.board svg').waitFor();
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(out, `${p.name}-${size}.png`) });
      console.log(`wrote docs/screenshots/${p.name}-${size}.png`);
    }
    await page.goto(`${base}/`);
    await page.locator('.type-card').first().waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(out, `lobby-${size}.png`) });
    console.log(`wrote docs/screenshots/lobby-${size}.png`);
    await context.close();

    // Ann signed in: her games (the one waiting for her first), the open games, her settings.
    const annContext = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    const held = { [privateGame.game.id]: { id: privateGame.game.id, type: privateGame.game.type, seats: {}, added: new Date().toISOString(), invite: privateGame.inviteCode } };
    await annContext.addInitScript((items: Record<string, string>) => {
      if (!sessionStorage.getItem('seeded')) for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
      sessionStorage.setItem('seeded', '1');
    }, signedInAs(ann, held));
    const annPage = await annContext.newPage();
    const shot = async (p: typeof annPage, name: string) => {
      await p.waitForTimeout(400);
      await p.screenshot({ path: join(out, `${name}-${size}.png`), fullPage: name === 'lobby-player' });
      console.log(`wrote docs/screenshots/${name}-${size}.png`);
    };
    await annPage.goto(`${base}/`);
    await annPage.locator('.my-games li').first().waitFor();
    await annPage.locator('.open-games li').first().waitFor();
    await shot(annPage, 'lobby-player');
    await annPage.locator('.settings-box > summary').click();
    await annPage.locator('.token-list li').first().waitFor();
    await annPage.locator('#account').scrollIntoViewIfNeeded();
    await annPage.evaluate(() => document.getElementById('account')!.scrollIntoView());
    await shot(annPage, 'account');
    await annPage.goto(`${base}/games/${privateGame.game.id}`);
    await annPage.locator('.invite input').waitFor();
    await shot(annPage, 'open-game');
    await annContext.close();

    // Bo opens Ann's invite link.
    const boContext = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    await boContext.addInitScript((items: Record<string, string>) => {
      for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
    }, signedInAs(bo));
    const boPage = await boContext.newPage();
    await boPage.goto(invite);
    await boPage.locator('.join-seat button').first().waitFor();
    await shot(boPage, 'join');
    await boContext.close();
  }
} finally {
  await browser.close();
  await service.close();
  await database.close();
  await stop?.();
  rmSync(folder, { recursive: true, force: true });
}
