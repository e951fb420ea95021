/**
 * The notification settings of the account in a real Chromium against a real server (one
 * that may deliver to private addresses, as a test's receiver on 127.0.0.1 is): a webhook
 * added in the page, its secret shown once, listed; a game started by the player delivers
 * to it (signed, verified by the receiver) and the delivery is listed; then it is deleted.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { startReceiver, type Receiver } from '../support/receivers.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { findChromium, launchChromium } from './browser.ts';
import { SHORT_RAID } from './fixtures.ts';

const chromium = findChromium();
if (!chromium) console.warn('test/web: NO CHROMIUM FOUND, the notification browser tests are SKIPPED');

describe.skipIf(!chromium)('the notification settings in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  let receiver: Receiver;
  let db: OwnDatabase;

  beforeAll(async () => {
    [receiver, db] = await Promise.all([startReceiver(), ownDatabase('web_notifications')]);
    server = await startTestServer({ databaseUrl: db.url, rateLimit: 100_000, registrationsPerMinute: 10_000, notifications: { allowPrivate: true, webhookAttempts: 2 }, workers: { pollInterval: 200 } });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
    await db?.drop();
  });

  it('adds a webhook to a receiver, lists it with its deliveries, and deletes it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page: Page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(server.url + '/');
    await page.getByLabel('Name', { exact: true }).fill('Hal');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => page.locator('.account .signed-in').textContent()).toContain('Signed in as Hal');
    const token = await page.getByLabel('Your player token').inputValue();

    await page.locator('.settings-box > summary').click();
    const hooks = page.locator('.webhooks');
    await expect.poll(() => hooks.locator('form.new-webhook').count()).toBe(1);
    const path = `/hal-${randomUUID()}`;
    await hooks.getByLabel('Address').fill(receiver.url + path);
    await hooks.locator('#hook-GAME_STARTED').check();
    await hooks.getByRole('button', { name: 'Add webhook' }).click();
    // The secret is shown once, and the webhook is listed with the events picked.
    await expect.poll(() => hooks.locator('.new-secret').textContent()).toContain(`Secret for ${receiver.url}${path}`);
    const secret = (await hooks.locator('.new-secret code').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    receiver.secrets.set(path, secret);
    const item = hooks.locator('.webhook-list > li', { hasText: receiver.url + path });
    await expect.poll(() => item.textContent()).toContain('GAME_STARTED');
    expect(await item.textContent()).toContain('No deliveries yet.');
    const me = await server.gql(`{ me { webhooks { url events } } }`, {}, token);
    expect(me.data.me.webhooks).toEqual([{ url: receiver.url + path, events: expect.arrayContaining(['YOUR_TURN', 'GAME_STARTED', 'GAME_OVER']) }]);

    // A game against a bot starts: the receiver gets the signed GAME_STARTED, and the page lists the delivery.
    const card = page.locator('.type-card[data-type="raid-on-wuchao"]');
    await card.locator('select[name="kind-yuan"]').selectOption('bot:random');
    await card.locator('summary').click();
    await card.locator('textarea[name="options"]').fill(JSON.stringify(SHORT_RAID));
    await card.getByRole('button', { name: /^Create/ }).click();
    await page.waitForURL(/\/games\/[0-9a-f-]+$/);
    await expect.poll(() => receiver.received.filter((r) => r.path === path && r.body?.type === 'GAME_STARTED').length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(receiver.received.filter((r) => r.path === path).every((r) => r.verified)).toBe(true);
    await page.goto(server.url + '/');
    await page.locator('.settings-box > summary').click();
    await expect.poll(() => item.locator('.deliveries').textContent(), { timeout: 20_000 }).toMatch(/GAME_STARTED: \w+ after \d attempt/);

    // Deleted: gone from the page and from the service.
    await item.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => hooks.locator('.webhook-list > li').count()).toBe(0);
    const after = await server.gql(`{ me { webhooks { url } } }`, {}, token);
    expect(after.data.me.webhooks).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);
});
