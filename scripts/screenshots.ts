/**
 * npm run screenshots: writes docs/screenshots/<game>-desktop.png and -phone.png, each
 * game page in mid-game, plus the lobby. It runs its own server on a throw-away embedded
 * PostgreSQL (or DATABASE_URL), plays a few commands through GraphQL to reach a position,
 * and opens each page in the OS's Chromium.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { buildApp } from '../src/api/app.ts';
import { games } from '../src/domain/games.ts';
import { openDatabase } from '../src/persistence/database.ts';
import { startEmbedded } from '../src/persistence/embedded.ts';
import { migrate } from '../src/persistence/migrate.ts';
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
const app = await buildApp({ database, games, logger: false, rateLimit: 100_000 });
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
  }
} finally {
  await browser.close();
  await app.close();
  await database.close();
  await stop?.();
  rmSync(folder, { recursive: true, force: true });
}
