/**
 * The play-by-web client in a real Chromium against a real server: two players (two
 * browser contexts, one seat each, the second joining by the seat link) play a short game
 * of Raid on Wuchao to its end by clicking and see each other's moves arrive live, also
 * after a dropped connection; the replay slider; a refusal with the service's reason; and
 * for the three other games, the board drawn and a legal command made by clicking (and for
 * Warchon, in hot seat, none of Azuthkan's units named anywhere on Celestine's page).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { findChromium } from './browser.ts';
import { type Checked, createFromLobby as createFromLobby_, openHarness, type Harness } from './harness.ts';
import { SHORT_RAID } from './fixtures.ts';
import { DEMO_ROSTER } from '../../src/domain/warchon/data.ts';

const chromium = findChromium();
if (!chromium) console.warn('test/web: NO CHROMIUM FOUND, the browser tests are SKIPPED');

describe.skipIf(!chromium)('the web client in a browser', () => {
  let t: Harness;
  beforeAll(async () => {
    t = await openHarness({ rateLimit: 100_000 });
  });
  afterAll(() => t?.close());
  const newPage = (viewport?: { width: number; height: number }) => t.newPage(viewport);
  const createFromLobby = (page: Page, type: string, names: Record<string, string>, options?: unknown) => createFromLobby_(page, t.server.url, type, names, options);

  const log = (page: Page) => page.locator('ol.log');

  it('two players play Raid on Wuchao to the end by clicking, each seeing the other\'s moves live', async () => {
    const ann = await newPage();
    await createFromLobby(ann, 'raid-on-wuchao', { cao: 'Ann', yuan: 'Bo' }, SHORT_RAID);
    // Ann holds both seats until she hands Yuan's over: the page shows the link, then forgets it.
    await ann.locator('.seats summary').click();
    const link = await ann.locator('input[aria-label="Link for yuan"]').inputValue();
    expect(link).toMatch(/#seat=yuan&token=/);
    await ann.locator('button.hand-over[data-seat="yuan"]').click();
    await expect.poll(() => ann.locator('.seat-bar').textContent()).toContain('Ann (Cao)');

    const bo = await newPage({ width: 390, height: 844 }); // Bo plays on a phone
    await bo.goto(link);
    await bo.locator('.board svg').waitFor();
    expect(new URL(bo.url()).hash).toBe(''); // the token left the address bar
    await expect.poll(() => bo.locator('.status').textContent()).toContain('You (setup)');
    expect(await bo.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(391);

    // Yuan sets up: pick the token off the map, then a highlighted space.
    await bo.locator('[data-piece="zhang-he"]').click();
    await bo.locator('[data-place="H2"].dest').click();
    await expect.poll(() => log(bo).textContent()).toContain('Zhang He set up in H2.');
    // Ann sees it arrive without reloading, and that it is her turn.
    await expect.poll(() => log(ann).textContent()).toContain('Zhang He set up in H2.');
    await expect.poll(() => ann.locator('.status').textContent()).toContain('You (move)');

    // Cao Cao rides to the granary H1 by way of B1.
    await ann.locator('[data-piece="cao-cao"]').click();
    await ann.locator('[data-place="B1"].dest').click();
    await expect.poll(() => log(ann).textContent()).toContain('Cao Cao moved A1 → B1.');
    await ann.locator('[data-piece="cao-cao"]').click();
    await ann.locator('[data-place="H1"].dest').click();
    await expect.poll(() => log(bo).textContent()).toContain('Cao Cao moved B1 → H1.');

    // Ann's connection drops; the client reconnects and resumes from the last version seen.
    await ann.evaluate(() => (window as unknown as { wargame: { dropConnection(): void } }).wargame.dropConnection());
    await ann.getByRole('button', { name: 'End movement' }).click();
    await expect.poll(() => bo.locator('.status').textContent()).toContain('You (move)');

    // Yuan cuts Cao off from his camp: Zhang He to B1, then A1, and the game is over.
    await bo.locator('[data-piece="zhang-he"]').click();
    await bo.locator('[data-place="B1"].dest').click();
    await expect.poll(() => log(ann).textContent()).toContain('Zhang He moved H2 → B1.');
    await expect.poll(() => ann.locator('#conn').textContent()).toBe('live');
    await bo.locator('[data-piece="zhang-he"]').click();
    await bo.locator('[data-place="A1"].dest').click();
    for (const page of [ann, bo]) {
      await expect.poll(() => page.locator('.status').textContent()).toContain('Game over: Bo (Yuan) won — Cutoff: Yuan holds A1');
    }
    // Each event arrived once and in order on Ann's page, across the dropped connection.
    const versions = await log(ann).locator('li').evaluateAll((lis) => lis.map((li) => Number(li.getAttribute('data-version'))));
    expect(versions).toEqual(Array.from({ length: versions.length }, (_, i) => i + 1));
    const game = await t.server.gql(`query($id: ID!) { game(id: $id) { status version } }`, { id: new URL(ann.url()).pathname.split('/').pop() });
    expect(game.data.game).toEqual({ status: 'FINISHED', version: versions.length });

    // The replay slider: back at version 1 Zhang He is not yet on the map.
    const slider = ann.getByRole('slider', { name: 'Replay: version' });
    await slider.fill('1');
    await expect.poll(() => ann.locator('.replay-label').textContent()).toContain(`Version 1 of ${versions.length}`);
    await expect.poll(() => ann.locator('.board svg').textContent()).toContain('Not yet on the map');
    await expect.poll(() => ann.locator('.summary').textContent()).toContain('Setup');
    await ann.getByRole('button', { name: 'Back to the live game' }).click();
    await expect.poll(() => ann.locator('.replay-label').textContent()).toContain('Live');
    for (const page of [ann, bo]) expect((page as Checked).errors).toEqual([]);
  });

  it('shows a refused command with the service\'s reason', async () => {
    const page = await newPage();
    await createFromLobby(page, 'raid-on-wuchao', { cao: 'Cy', yuan: 'Di' });
    await expect.poll(() => page.locator('.seat-bar').textContent()).toContain('Play as');
    await page.locator('.all-commands > summary').click();
    await page.getByRole('textbox', { name: 'A command as JSON' }).fill('{"type":"placeUnit","unit":"zhang-he","space":"B1"}');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Refused' }).textContent()).toMatch(/Refused \(ILLEGAL_COMMAND\): .*zone B/);
    // The fallback list has every legal command, each one playable.
    await page.locator('.all-commands li button').first().click();
    await expect.poll(() => log(page).textContent()).toContain('set up in');
  });

  it('draws Three Kingdoms\' grid and places a unit by keyboard', async () => {
    const page = await newPage();
    await createFromLobby(page, 'three-kingdoms-combined-arms', { wei: 'Wei player', shu: 'Shu player' });
    expect(await page.locator('[data-place]').count()).toBe(144);
    expect(await page.locator('.board svg').textContent()).toContain('city');
    const general = page.locator('[data-piece="reserve:general"]');
    await general.focus();
    await page.keyboard.press('Enter');
    const square = page.locator('.square.dest').first();
    const where = await square.getAttribute('data-place');
    await square.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => log(page).textContent()).toContain(`placed General in ${where}.`);
  });

  it('draws Chinese Warlords\' hex map with its stacks and recruits by clicking', async () => {
    const page = await newPage();
    await createFromLobby(page, 'chinese-warlords', { red: 'Red player', blue: 'Blue player' });
    expect(await page.locator('.hex').count()).toBeGreaterThan(50);
    expect(await page.locator('.stack').count()).toBeGreaterThanOrEqual(2);
    await page.locator('[data-piece="recruit:peasants"]').click();
    await page.locator('.hex.dest').first().click();
    await expect.poll(() => log(page).textContent()).toMatch(/recruited Peasants in/);
  });

  it('draws Warchon\'s spreads with their Capacity, hides the other army, and places a unit by clicking', async () => {
    const page = await newPage();
    await createFromLobby(page, 'warchon', { azuthkan: 'Az', celestine: 'Ce' });
    expect(await page.locator('.spread').count()).toBe(7);
    expect(await page.locator('.board svg').textContent()).toContain('Capacity');
    await page.locator('[data-piece^="roster:"]').first().click();
    await page.locator('.spread.dest').first().click();
    await expect.poll(() => log(page).textContent()).toMatch(/placed .* in spread/);
    // Each army's units by the names the game gives them (its roster's, which the view gives the
    // owner as a unit's `name`) and by their keys (the roster copies' "baphite-swarm-2").
    const words = (army: string) => DEMO_ROSTER.filter((t) => t.army === army).flatMap((t) => [t.name, t.key]);
    const azuthkan = words('azuthkan');
    const celestine = words('celestine');
    const placed = page.locator('.board [data-piece^="azuthkan-"]');
    const html = () => page.content();
    // Azuthkan's own page names all of its units: the one placed (its marker, the log) and those
    // still to place (the tray), so the words looked for on Celestine's page are the page's words.
    for (const w of azuthkan) await expect.poll(html, { message: `Azuthkan's own page names ${w}` }).toContain(w);
    const label = async () => (await placed.locator('text').first().textContent())?.trim();
    expect(
      DEMO_ROSTER.filter((t) => t.army === 'azuthkan').map((t) => t.name),
      "the placed unit's label on its owner's page",
    ).toContain(await label());
    // Hot seat: Celestine's view shows Azuthkan's unit only as a marker. The page is Celestine's
    // once her own units are in its tray; then nothing on it, text or attribute, names any of
    // Azuthkan's units, placed or not.
    await page.getByRole('button', { name: /^Celestine/ }).click();
    await expect.poll(() => page.locator('.seat-bar button[aria-pressed="true"]').textContent()).toMatch(/^Celestine/);
    for (const w of celestine) await expect.poll(html, { message: `Celestine's own page names ${w}` }).toContain(w);
    const seen = await html();
    expect(
      azuthkan.filter((w) => seen.includes(w)),
      "Azuthkan's units named on Celestine's page",
    ).toEqual([]);
    expect(await placed.count()).toBe(1);
    expect(await label()).toBe('Hidden unit');
  });
});
