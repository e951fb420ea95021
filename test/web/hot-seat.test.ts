/**
 * The game page's seat state (web/src/game-state.ts) in a real Chromium: a browser holding
 * every seat of a game (hot seat) plays the seat the game waits for; a seat picked by hand
 * stays picked until the game moves on, then the page follows the turn again; a seat handed
 * over is forgotten here and the page plays the one left.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from './browser.ts';
import { createFromLobby, openHarness, type Harness } from './harness.ts';
import { SHORT_RAID } from './fixtures.ts';

const chromium = findChromium();
if (!chromium) console.warn('test/web: NO CHROMIUM FOUND, the hot-seat browser tests are SKIPPED');

describe.skipIf(!chromium)('hot seat', () => {
  let t: Harness;
  beforeAll(async () => {
    t = await openHarness();
  });
  afterAll(() => t?.close());

  it('follows the turn, keeps a seat picked by hand until the game moves, and plays the seat left after a hand-over', async () => {
    const page = await t.newPage({ width: 390, height: 844 });
    await createFromLobby(page, t.server.url, 'raid-on-wuchao', { cao: 'Cy', yuan: 'Di' }, SHORT_RAID);
    const pressed = page.locator('.seat-bar button[aria-pressed="true"]');
    // Yuan sets up first: the page plays Yuan.
    await expect.poll(() => pressed.textContent()).toMatch(/^Yuan/);
    expect(await page.locator('.status').textContent()).toContain('You');
    // Cao picked by hand: it stays, though the game waits for Yuan.
    await page.locator('.seat-bar button', { hasText: /^Cao/ }).click();
    await expect.poll(() => pressed.textContent()).toMatch(/^Cao/);
    await page.waitForTimeout(500);
    expect(await pressed.textContent()).toMatch(/^Cao/);
    // Yuan again by hand; then Yuan's setup arrives from elsewhere (Yuan's token, over the
    // API): the game moves on to Cao's turn and the page follows it.
    await page.locator('.seat-bar button', { hasText: /^Yuan/ }).click();
    await expect.poll(() => pressed.textContent()).toMatch(/^Yuan/);
    const id = new URL(page.url()).pathname.split('/').pop()!;
    const yuan = await page.evaluate((g) => JSON.parse(localStorage.getItem('wargame.games.v1')!)[g].seats.yuan as string, id);
    const read = await t.server.gql('query($id: ID!) { game(id: $id) { version legalCommands } }', { id }, yuan);
    const sent = await t.server.gql('mutation($id: ID!, $c: JSON!, $v: Int) { submitCommand(gameId: $id, command: $c, expectedVersion: $v) { game { version awaiting { seat } } } }', { id, c: read.data.game.legalCommands[0], v: read.data.game.version }, yuan);
    expect(sent.errors).toBeUndefined();
    expect(sent.data.submitCommand.game.awaiting.map((a: { seat: string }) => a.seat)).toEqual(['cao']);
    await expect.poll(() => page.locator('.game-title').textContent()).toContain(`version ${sent.data.submitCommand.game.version}`);
    await expect.poll(() => pressed.textContent()).toMatch(/^Cao/);
    // Hand Cao (the seat played) over: Yuan is the seat left, played from now on.
    await page.locator('.seats details > summary').first().click().catch(() => {});
    await page.locator('button.hand-over[data-seat="cao"]').click();
    await expect.poll(() => page.locator('.seat-bar').textContent()).toMatch(/Playing as .*Yuan/);
    expect(await page.evaluate(() => Object.keys(JSON.parse(localStorage.getItem('wargame.games.v1')!)[location.pathname.split('/').pop()!].seats))).toEqual(['yuan']);
    expect(page.errors).toEqual([]);
  });
});
