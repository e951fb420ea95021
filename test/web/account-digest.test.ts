/**
 * The account page's daily digest toggle and calendar link in a real Chromium against a
 * real server: the toggle is saved (emailDigest), the link is the player's feed (served as
 * text/calendar), and revoking a token in the page changes the link and kills the old one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { findChromium, launchChromium } from './browser.ts';

const chromium = findChromium();
if (!chromium) console.warn('test/web: NO CHROMIUM FOUND, the digest and calendar browser tests are SKIPPED');

describe.skipIf(!chromium)('the digest and calendar settings in a browser', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer({ rateLimit: 100_000, registrationsPerMinute: 10_000 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The feed behind a link of PUBLIC_URL (http://localhost:4000 here), fetched from this server. */
  const fetchFeed = (url: string) => fetch(server.url + new URL(url).pathname);

  it('saves the digest toggle, shows the calendar link, and changes it when a token is revoked', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page: Page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(server.url + '/');
    await page.getByLabel('Name', { exact: true }).fill('Ivy');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => page.locator('.account .signed-in').textContent()).toContain('Signed in as Ivy');
    const token = await page.getByLabel('Your player token').inputValue();
    await page.locator('.settings-box > summary').click();

    // The digest toggle, saved through updatePlayer and shown checked after the redraw.
    const toggle = page.getByLabel(/one mail a day listing every game waiting for me/);
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check();
    await page.locator('form.profile').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('.profile [role=status]').textContent()).toBe('Saved.');
    expect((await server.gql(`{ me { emailDigest } }`, {}, token)).data.me.emailDigest).toBe(true);
    expect(await page.getByLabel(/one mail a day listing every game waiting for me/).isChecked()).toBe(true);

    // The calendar link: the player's feed.
    const link = page.getByLabel('Your calendar link');
    await expect.poll(() => link.count()).toBe(1);
    const url = await link.inputValue();
    expect(url).toBe((await server.gql(`{ me { calendarUrl } }`, {}, token)).data.me.calendarUrl);
    expect(await page.locator('a.calendar-link').getAttribute('href')).toBe(url);
    const served = await fetchFeed(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(await served.text()).toContain('BEGIN:VCALENDAR');

    // A token made and revoked in the page: the old link is dead, the page shows the new one.
    const tokens = page.locator('.tokens');
    await tokens.getByLabel('New token named').fill('tablet');
    await tokens.getByRole('button', { name: 'Make a token' }).click();
    await expect.poll(() => tokens.locator('.token-list li', { hasText: 'tablet' }).count()).toBe(1);
    await tokens.getByRole('button', { name: 'Revoke tablet' }).click();
    await expect.poll(() => tokens.locator('.token-list li', { hasText: 'tablet' }).count()).toBe(0);
    await expect.poll(() => page.getByLabel('Your calendar link').inputValue()).not.toBe(url);
    expect((await fetchFeed(url)).status).toBe(404);
    expect((await fetchFeed(await page.getByLabel('Your calendar link').inputValue())).status).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  });
});
