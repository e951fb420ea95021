/**
 * Absence in a real Chromium against a real server: the account page's form sets an
 * absence (the service's answer listed), refuses an overlapping one with the service's
 * reason, the game page shows "absent until" on the player's seat with its clock stopped,
 * and "I am back" ends it (the service's record ends now, the seat's clock ticks again).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { findChromium, launchChromium } from './browser.ts';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const chromium = findChromium();
if (!chromium) console.warn('test/web: NO CHROMIUM FOUND, the absence browser tests are SKIPPED');

describe.skipIf(!chromium)('absence in a browser', () => {
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

  it('sets an absence from the account page, shows "absent until" on the seat, refuses an overlap with the reason, and ends it', async () => {
    // bypassCSP: axe-core is injected by the test, not served by the service.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const page: Page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(server.url + '/');
    await page.getByLabel('Name', { exact: true }).fill('Ida');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => page.locator('.account .signed-in').textContent()).toContain('Signed in as Ida');
    const token = await page.getByLabel('Your player token').inputValue();

    await page.locator('.absence-box > summary').click();
    const box = page.locator('.absences');
    await expect.poll(() => box.locator('.no-absence').textContent()).toContain('No absence planned');
    // The form starts at now and ends a week later: away from now.
    await box.getByRole('button', { name: 'Set absence' }).click();
    await expect.poll(() => box.locator('[role=status]').textContent()).toMatch(/^Absence set: from .+ until .+\.$/);
    const listed = box.locator('.absence-list > li');
    await expect.poll(() => listed.count()).toBe(1);
    expect(await listed.textContent()).toMatch(/^Away now from .+ until .+ I am back$/);
    const me = async () => (await server.gql(`{ me { absences { id from until } } }`, {}, token)).data.me.absences as { id: string; from: string; until: string }[];
    const [absence] = await me();
    expect(Date.parse(absence!.until) - Date.parse(absence!.from)).toBeGreaterThan(6.9 * 86_400_000);
    // The form and its list have no serious or critical axe-core finding.
    await page.evaluate(AXE);
    const findings = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(ctx: Element, o: object): Promise<{ violations: { id: string; impact: string }[] }> } }).axe;
      return (await axe.run(document.querySelector('.absence-box')!, { resultTypes: ['violations'] })).violations;
    });
    expect(findings.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

    // The same again overlaps: the service's reason is shown, nothing is added.
    await box.getByRole('button', { name: 'Set absence' }).click();
    await expect.poll(() => box.locator('[role=status]').textContent()).toMatch(/^Not set: This absence cannot be set: it overlaps your absence from/);
    expect(await me()).toHaveLength(1);

    // A game of Ida's: her seat says until when she is away.
    const created = await server.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { game { id } } }`, {
      i: { type: 'guessing-game', seats: [{ seat: 'north', me: true }, { seat: 'east', name: 'Eve' }], clock: { perMove: 86_400 } },
    }, token);
    expect(created.errors).toBeUndefined();
    const gameId = created.data.createGame.game.id as string;
    await page.goto(`${server.url}/games/${gameId}`);
    const seat = page.locator('.seat-list li[data-seat="north"]');
    await expect.poll(() => seat.locator('.badge.absent').textContent()).toBe(`absent until ${await page.evaluate((iso) => new Date(iso).toLocaleString(), absence!.until)}`);
    expect(await page.locator('.seat-list li[data-seat="east"] .badge.absent').count()).toBe(0);
    // Her clock stands still: awaited while she is away, she has her whole day from her return, and it does not tick.
    expect(await seat.locator('.deadline.paused').textContent()).toBe('⏸ 1 d 0 h left');
    expect(await seat.locator('[data-deadline]').count()).toBe(0);
    expect(await page.locator('.seat-list li[data-seat="east"] [data-deadline]').count()).toBe(1);

    // Back: the absence ends now, the page says so and the seat's badge is gone.
    await page.goto(server.url + '/');
    await page.locator('.absence-box > summary').click();
    await box.getByRole('button', { name: 'I am back' }).click();
    await expect.poll(() => box.locator('[role=status]').textContent()).toBe('Welcome back: your clocks run again.');
    await expect.poll(() => box.locator('.no-absence').count()).toBe(1);
    const [ended] = await me();
    expect(Date.parse(ended!.until)).toBeLessThanOrEqual(Date.now() + 1_000);
    await page.goto(`${server.url}/games/${gameId}`);
    await expect.poll(() => page.locator('.seat-list li[data-seat="north"]').count()).toBe(1);
    expect(await page.locator('.seat-list .badge.absent').count()).toBe(0);
    await expect.poll(() => page.locator('.seat-list li[data-seat="north"] [data-deadline]').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
