/**
 * The three other games in a real Chromium against a real server, each to its end by
 * clicking: a registered player creates a game with an open seat, a guest joins by the
 * invite link, and the two play it out — setup on the board (a piece, then a highlighted
 * place), the rest by the page's buttons and its plain list of legal commands — each page
 * seeing the other's moves arrive without a reload. Creation options keep the games short
 * (a turn limit; small maps and rosters): the turn limit's draw is an end of the game.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { findChromium } from './browser.ts';
import { openHarness, type Checked, type Harness } from './harness.ts';

const chromium = findChromium();
if (!chromium) console.warn('test/web: NO CHROMIUM FOUND, the game browser tests are SKIPPED');

/** Two strongholds three hexes apart. */
const SKIRMISH = {
  name: 'skirmish',
  hexes: [
    ...['stronghold', 'open', 'open', 'stronghold'].map((terrain, col) => ({ col, row: 0, terrain })),
    ...['open', 'village', 'road', 'open'].map((terrain, col) => ({ col, row: 1, terrain })),
  ],
  strongholds: ['0,0', '3,0'],
};

/** One small unit a side. */
const TWO_UNITS = [
  { key: 'scout', name: 'Scout', army: 'azuthkan', count: 1, lines: [{ size: 1, movement: 1, as: 1, ds: 1 }] },
  { key: 'squire', name: 'Squire', army: 'celestine', count: 1, lines: [{ size: 1, movement: 1, as: 1, ds: 1 }] },
];

const TK_TERRAIN = {
  cities: ['F6', 'G7', 'C9', 'J4', 'A6', 'L7', 'F1', 'G12', 'D7', 'I6'],
  forests: ['E8', 'H5', 'B4', 'K9', 'C11', 'J2', 'F10', 'G3', 'A10', 'L3'],
  mountains: ['F8', 'G5', 'D10', 'I3', 'B8', 'K5', 'E9', 'H4', 'C7', 'J8'],
};

describe.skipIf(!chromium)('every game in a browser, to its end', () => {
  let t: Harness;
  beforeAll(async () => {
    t = await openHarness();
  });
  afterAll(() => t?.close());
  const newPage = (viewport?: { width: number; height: number }) => t.newPage(viewport);

  async function registerAs(page: Page, name: string) {
    await page.goto(t.server.url + '/');
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => page.locator('.account .signed-in').textContent()).toContain(`Signed in as ${name}`);
  }

  const status = (page: Page) => page.locator('.status');
  const log = (page: Page) => page.locator('ol.log');
  const version = async (page: Page) => Number(/version (\d+)/.exec((await page.locator('.game-title').textContent()) ?? '')?.[1] ?? 0);

  /** Ann creates the game from the lobby (options in the JSON box), Guest joins by the invite link. */
  async function start(type: string, seats: [string, string], seatNames: [string, string], options: unknown): Promise<[Checked, Checked]> {
    const ann = await newPage();
    await registerAs(ann, `Ann ${type}`);
    await ann.goto(t.server.url + '/');
    const card = ann.locator(`.type-card[data-type="${type}"]`);
    await card.locator(`select[name="kind-${seats[0]}"]`).selectOption('me');
    await card.locator(`select[name="kind-${seats[1]}"]`).selectOption('open');
    await card.locator('summary').click();
    await card.locator('textarea[name="options"]').fill(JSON.stringify(options));
    await card.getByRole('button', { name: /^Create/ }).click();
    await ann.waitForURL(/\/games\/[0-9a-f-]+$/);
    const invite = await ann.getByLabel(/Invite link/).inputValue();
    expect(invite).toMatch(/\/join\/[A-Za-z0-9_-]{12}$/);

    const guest = await newPage();
    await guest.goto(invite);
    await guest.getByLabel('Your name').fill('Guest');
    await guest.getByRole('button', { name: `Join as ${seatNames[1]}` }).click();
    await guest.locator('.board svg').waitFor();
    await ann.locator('.board svg').waitFor(); // Ann's waiting page turns into the board by itself
    await expect.poll(() => ann.locator('.seats').textContent()).toContain('Guest');
    return [ann, guest];
  }

  /** Is this page's player awaited? */
  const awaited = async (page: Page) => /\bYou \(/.test((await status(page).textContent()) ?? '');

  /**
   * One decision by clicking: in setup a piece then a highlighted place on the board; in
   * a move or recruitment, while the page's budget of board moves lasts, the same;
   * otherwise the page's general buttons (end of a phase), else the first entry of the
   * plain list of legal commands that is neither resigning nor a draw offer.
   */
  async function act(page: Page, budget: Map<Page, number>) {
    const text = (await status(page).textContent()) ?? '';
    if (/\(setup\)/.test(text)) {
      await page.locator('.board [data-piece].can').first().click();
      await page.locator('.board .dest').first().click();
      return 'board setup';
    }
    if (/\((move|recruit)\)/.test(text) && (budget.get(page) ?? 0) > 0 && (await page.locator('.board [data-piece].can').count())) {
      budget.set(page, budget.get(page)! - 1);
      await page.locator('.board [data-piece].can').first().click();
      const dest = page.locator('.board .dest');
      await expect.poll(() => dest.count(), { timeout: 3_000 }).toBeGreaterThan(0);
      await dest.first().click();
      return 'board move';
    }
    const general = page.locator('.actions .general button.primary');
    if (await general.count()) {
      await general.first().click();
      return 'general';
    }
    if (!(await page.locator('.all-commands').getAttribute('open'))) await page.locator('.all-commands > summary').click();
    await page.locator('.all-commands li button').filter({ hasNotText: /Resign|draw/i }).first().click();
    return 'list';
  }

  /** Plays until both pages say the game is over; after every click the other page shows the same version, live. */
  async function playOut(pages: Checked[], maxSteps: number, boardMoves: number, sameLog = true) {
    const ways = new Set<string>();
    const budget = new Map<Page, number>(pages.map((p) => [p, boardMoves]));
    let steps = 0;
    for (; steps < maxSteps; steps++) {
      const over = /Game over/.test((await status(pages[0]!).textContent()) ?? '');
      if (over) break;
      const before = await version(pages[0]!);
      let mover: Checked | undefined;
      await expect.poll(async () => {
        if (/Game over/.test((await status(pages[0]!).textContent()) ?? '')) return true;
        for (const p of pages) if (await awaited(p)) { mover = p; return true; }
        return false;
      }, { timeout: 15_000 }).toBe(true);
      if (!mover) continue;
      ways.add(await act(mover, budget));
      // The move reaches both pages without a reload: the same version, and the mover's
      // newest log entry in the other's log too (unless hidden from the other side).
      for (const p of pages) await expect.poll(() => version(p), { timeout: 15_000 }).toBeGreaterThan(before);
      if (sameLog) {
        const other = pages.find((p) => p !== mover)!;
        const entry = (p: Page, v: number) => log(p).locator(`li[data-version="${v}"]`);
        const v = await version(mover);
        const newest = await entry(mover, v).textContent();
        await expect.poll(() => entry(other, v).textContent()).toBe(newest);
      }
    }
    expect(steps).toBeLessThan(maxSteps);
    const results = await Promise.all(pages.map(async (p) => { await expect.poll(() => status(p).textContent()).toContain('Game over'); return (await status(p).textContent())!; }));
    expect(results[1]).toBe(results[0]);
    // Every event once and in order on both pages.
    for (const p of pages) {
      const versions = await log(p).locator('li').evaluateAll((lis) => lis.map((li) => Number(li.getAttribute('data-version'))));
      expect(versions).toEqual(Array.from({ length: versions.length }, (_, i) => i + 1));
      expect(versions.length).toBe(await version(p));
    }
    for (const p of pages) expect(p.errors).toEqual([]);
    return { result: results[0]!, ways };
  }

  it('Three Kingdoms Combined Arms: set up on the grid, one round, the turn limit\'s draw', async () => {
    const pages = await start('three-kingdoms-combined-arms', ['wei', 'shu'], ['Wei', 'Shu'], { terrain: TK_TERRAIN, turnLimit: 1 });
    const { result, ways } = await playOut(pages, 80, 2);
    expect(result).toMatch(/Game over: a draw — turn limit of 1 round reached/);
    expect([...ways]).toEqual(expect.arrayContaining(['board setup', 'board move']));
  }, 90_000);

  it('Chinese Warlords: a two-stronghold map, one turn, to the turn limit', async () => {
    const pages = await start('chinese-warlords', ['red', 'blue'], ['Red', 'Blue'], { map: SKIRMISH, turnLimit: 1 });
    const { result, ways } = await playOut(pages, 60, 2);
    expect(result).toMatch(/Game over: a draw — turn limit reached after turn 1/);
    expect(ways.has('board move')).toBe(true);
  }, 90_000);

  it('Warchon: one unit a side placed on the spreads, one turn, to the turn limit', async () => {
    const pages = await start('warchon', ['azuthkan', 'celestine'], ['Azuthkan', 'Celestine'], { roster: TWO_UNITS, numbers: 'server', turnLimit: 1 });
    const { result, ways } = await playOut(pages, 60, 1, false);
    expect(result).toMatch(/Game over: a draw — turn limit 1 reached/);
    expect([...ways]).toEqual(expect.arrayContaining(['board setup', 'board move']));
  }, 90_000);
});
