/**
 * What the browser tests share: a real server on the test database, the OS's Chromium, and
 * pages that record their errors and any request that leaves the service.
 */
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { launchChromium } from './browser.ts';

export type Checked = Page & { errors: string[] };

export interface Harness {
  server: TestServer;
  browser: Browser;
  /** A page in a context of its own (its own localStorage: another player). */
  newPage(viewport?: { width: number; height: number }, options?: { bypassCSP?: boolean }): Promise<Checked>;
  close(): Promise<void>;
}

export async function openHarness(options: Parameters<typeof startTestServer>[0] = { rateLimit: 100_000, registrationsPerMinute: 10_000 }): Promise<Harness> {
  const server = await startTestServer(options);
  const browser = await launchChromium();
  return {
    server,
    browser,
    async newPage(viewport = { width: 1280, height: 900 }, opts = {}) {
      const context = await browser.newContext({ viewport, ...opts });
      const page = (await context.newPage()) as Checked;
      page.setDefaultTimeout(15_000);
      page.errors = [];
      page.on('pageerror', (e) => page.errors.push(e.message));
      page.on('request', (r) => {
        if (!r.url().startsWith(server.url) && !r.url().startsWith(server.url.replace('http', 'ws')) && !r.url().startsWith('data:')) page.errors.push(`external request ${r.url()}`);
      });
      return page;
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/** Creates a game from the lobby's card, every seat named (all held in this browser). */
export async function createFromLobby(page: Page, base: string, type: string, names: Record<string, string>, options?: unknown) {
  await page.goto(base + '/');
  const card = page.locator(`.type-card[data-type="${type}"]`);
  for (const [seat, name] of Object.entries(names)) await card.locator(`input[name="seat-${seat}"]`).fill(name);
  if (options) {
    await card.locator('summary').click();
    await card.locator('textarea[name="options"]').fill(JSON.stringify(options));
  }
  await card.getByRole('button', { name: /^Create/ }).click();
  await page.waitForURL(/\/games\/[0-9a-f-]+$/);
  await page.locator('.board > *').first().waitFor();
}
