/**
 * The messages panel of the game page in a real Chromium: two seats in two browsers (their
 * own localStorage) and a spectator. A public message arrives live in both other pages; a
 * private one only in its recipient's; markup in a message shows as its characters (no
 * element is made of it, no script runs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from './browser.ts';
import { openHarness, type Checked, type Harness } from './harness.ts';

const chromium = findChromium();
if (!chromium) console.warn('test/web: NO CHROMIUM FOUND, the messages browser tests are SKIPPED');

describe.skipIf(!chromium)('the messages panel', () => {
  let t: Harness;
  beforeAll(async () => {
    t = await openHarness();
  });
  afterAll(() => t?.close());

  it('sends public and private messages, live to who may read them, markup shown as text', async () => {
    const r = await t.server.rest('POST', '/api/games', { type: 'guessing-game', options: { target: 1000 }, seats: [{ seat: 'north', name: 'Nora' }, { seat: 'east', name: 'Ed' }, { seat: 'south', name: 'Sue' }] });
    expect(r.status).toBe(201);
    const id = r.body.game.id as string;
    const token = (seat: string) => r.body.seatTokens.find((x: { seat: string }) => x.seat === seat).token as string;
    const open = async (seat?: string): Promise<Checked> => {
      const page = await t.newPage();
      await page.goto(`${t.server.url}/games/${id}${seat ? `#seat=${seat}&token=${token(seat)}` : ''}`);
      await page.locator('.messages-panel').waitFor();
      return page;
    };
    const [nora, ed, sue, watcher] = [await open('north'), await open('east'), await open('south'), await open()];
    // The spectator reads but has no form (the form starts hidden: first the page has drawn the seats, and says so).
    await expect.poll(() => watcher.locator('.messages-note').textContent()).toContain('Only the seats of the game write here');
    expect(await watcher.locator('.message-form').isHidden()).toBe(true);
    const texts = (page: Checked) => page.locator('.messages .message-text').allTextContents();

    // Public, with markup in it.
    await nora.locator('.message-form textarea').fill('<b>x</b> <img src=x onerror="window.pwned=1">');
    await nora.getByRole('button', { name: 'Send message' }).click();
    const markup = '<b>x</b> <img src=x onerror="window.pwned=1">';
    for (const page of [nora, ed, sue, watcher]) await expect.poll(() => texts(page)).toEqual([markup]);
    for (const page of [nora, ed, watcher]) {
      // Its characters, and no element made of them.
      expect(await page.locator('.messages .message-text').first().textContent()).toBe(markup);
      expect(await page.locator('.messages b, .messages img').count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    }

    // Private, to East only.
    await nora.locator('.message-form select[name="to"]').selectOption('east');
    await nora.locator('.message-form textarea').fill('just for Ed');
    await nora.getByRole('button', { name: 'Send message' }).click();
    await expect.poll(() => texts(ed)).toEqual([markup, 'just for Ed']);
    await expect.poll(() => texts(nora)).toEqual([markup, 'just for Ed']);
    expect(await ed.locator('.message.private .message-head').textContent()).toContain('to you only');
    // East answers everyone; the others get that one, never the private one.
    await ed.locator('.message-form textarea').fill('thanks all');
    await ed.getByRole('button', { name: 'Send message' }).click();
    for (const page of [sue, watcher]) await expect.poll(() => texts(page)).toEqual([markup, 'thanks all']);
    // After a reload, the same: read from the service as that seat.
    await sue.reload();
    await sue.locator('.messages-panel').waitFor();
    await expect.poll(() => texts(sue)).toEqual([markup, 'thanks all']);
    // Too long a message is refused with the service's reason.
    await sue.locator('.message-form textarea').evaluate((el: HTMLTextAreaElement) => el.removeAttribute('maxlength'));
    await sue.locator('.message-form textarea').fill('y'.repeat(2001));
    await sue.getByRole('button', { name: 'Send message' }).click();
    await expect.poll(() => sue.locator('.messages-note').textContent()).toContain('BAD_REQUEST');

    for (const page of [nora, ed, sue, watcher]) expect(page.errors).toEqual([]);
  });
});
