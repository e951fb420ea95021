/**
 * The set-up trays on a phone (390x844): every piece a player places first, and the tray's
 * title, lie inside the board's drawing (nothing cut off at its right edge), and at the
 * "Whole board" zoom the drawing fits the screen's width; the page never scrolls sideways.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from './browser.ts';
import { openHarness, type Harness } from './harness.ts';

const chromium = findChromium();
if (!chromium) console.warn('test/web: NO CHROMIUM FOUND, the tray browser tests are SKIPPED');

const TYPES = ['raid-on-wuchao', 'three-kingdoms-combined-arms', 'chinese-warlords', 'warchon'];

describe.skipIf(!chromium)('set-up trays on a phone', () => {
  let t: Harness;
  beforeAll(async () => {
    t = await openHarness();
  });
  afterAll(() => t?.close());

  it.each(TYPES)('%s: the tray wraps inside the board', async (type) => {
    const page = await t.newPage({ width: 390, height: 844 });
    await page.goto(t.server.url + '/');
    const card = page.locator(`.type-card[data-type="${type}"]`);
    const inputs = card.locator('input[name^="seat-"]:visible:enabled');
    for (let i = 0; i < (await inputs.count()); i++) await inputs.nth(i).fill(`Player ${i + 1}`);
    await card.getByRole('button', { name: /^Create/ }).click();
    await page.waitForURL(/\/games\/[0-9a-f-]+$/);
    await page.locator('.board svg').waitFor();
    await expect.poll(() => page.locator('.status').textContent()).toContain('You (');

    // Everything drawn in the tray (and every piece anywhere) inside the viewBox.
    const outside = await page.locator('.board svg').evaluate((svg: SVGSVGElement) => {
      const vb = svg.viewBox.baseVal;
      const bad: string[] = [];
      let checked = 0;
      for (const el of svg.querySelectorAll<SVGGraphicsElement>('.tray-title, [data-piece]')) {
        const b = el.getBBox();
        checked++;
        if (b.x < vb.x - 0.5 || b.y < vb.y - 0.5 || b.x + b.width > vb.x + vb.width + 0.5 || b.y + b.height > vb.y + vb.height + 0.5) {
          bad.push(`${el.getAttribute('data-piece') ?? el.textContent}: x ${Math.round(b.x)}..${Math.round(b.x + b.width)} of ${Math.round(vb.width)}`);
        }
      }
      return { bad, checked, tray: svg.querySelectorAll('.tray-title').length };
    });
    expect(outside.bad).toEqual([]);
    if (type === 'raid-on-wuchao') expect(outside.tray).toBe(1); // its units start off the map
    expect(outside.checked).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Whole board' }).click();
    const box = await page.locator('.board svg').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390.5);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(page.errors).toEqual([]);
  });
});
