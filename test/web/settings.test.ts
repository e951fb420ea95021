/**
 * Honest settings, in a real Chromium against real servers: with mail off the account page
 * says so and asks for no mailed code (none would come); with mail on (a real SMTP server)
 * the code form is there and the mailed code verifies. A webhook to a private address is
 * refused with the operator's switch for local development named (WEBHOOK_ALLOW_PRIVATE).
 * At desktop and phone sizes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ownDatabase, type OwnDatabase } from '../support/own-database.ts';
import { startMailBox, type MailBox } from '../support/receivers.ts';
import { findChromium } from './browser.ts';
import { openHarness, type Harness } from './harness.ts';

const chromium = findChromium();
if (!chromium) console.warn('test/web: NO CHROMIUM FOUND, the settings browser tests are SKIPPED');

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings on the page as it is. */
async function axeFindings(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

async function registerAs(page: Page, url: string, name: string, email: string) {
  await page.goto(url + '/');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect.poll(() => page.locator('.account .signed-in').textContent()).toContain(`Signed in as ${name}`);
  await page.locator('.settings-box > summary').click();
}

describe.skipIf(!chromium)('honest settings: mail off', () => {
  let t: Harness;
  beforeAll(async () => {
    t = await openHarness(); // no mailer: mail is off; webhooks to private addresses refused (the default)
  });
  afterAll(() => t?.close());

  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    it(`says mail is not configured and asks for no code; a private webhook's refusal names WEBHOOK_ALLOW_PRIVATE (${viewport.width} px)`, async () => {
      const page = await t.newPage(viewport);
      await registerAs(page, t.server.url, `Ina${viewport.width}`, `ina${viewport.width}@example.org`);
      const note = page.locator('.settings .mail-off');
      await note.waitFor();
      expect(await note.textContent()).toContain('Mail is not configured on this service');
      expect(await page.locator('form.verify').isVisible()).toBe(false);
      expect(await page.getByLabel('Code from the mail').isVisible()).toBe(false);
      expect(await page.locator('.profile .email-state').textContent()).toBe('Email not verified: this service sends no mail, so no code can come.');

      await page.getByLabel('Address').fill('http://127.0.0.1:9/hook');
      await page.getByRole('button', { name: 'Add webhook' }).click();
      const said = page.locator('.webhooks [role=status]');
      await expect.poll(() => said.textContent()).toMatch(/^Not added: .*loopback or private address.*WEBHOOK_ALLOW_PRIVATE=true/);
      expect(await page.locator('.webhook-list li').count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width + 1);
      expect(await axeFindings(page), 'the settings open, mail off, a webhook refused').toEqual([]);
      expect(page.errors).toEqual([]);
    });
  }
});

describe.skipIf(!chromium)('honest settings: mail on', () => {
  let t: Harness;
  let box: MailBox;
  let db: OwnDatabase;
  beforeAll(async () => {
    [box, db] = await Promise.all([startMailBox(), ownDatabase('settings')]);
    t = await openHarness({ databaseUrl: db.url, rateLimit: 100_000, registrationsPerMinute: 10_000, workers: { pollInterval: 200 }, mailer: { smtpUrl: box.url, from: 'Wargames <games@wargames.test>' } });
  });
  afterAll(async () => {
    await t?.close();
    await box?.close();
    await db?.drop();
  });

  it('shows no mail-off note, and the code mailed verifies the email', async () => {
    const page = await t.newPage({ width: 390, height: 844 });
    await registerAs(page, t.server.url, 'Jo', 'jo@example.org');
    const code = page.getByLabel('Code from the mail');
    await code.waitFor();
    expect(await page.locator('.settings .mail-off').isVisible()).toBe(false);
    expect(await page.locator('.profile .email-state').textContent()).toContain('enter the code mailed to it below');
    await expect.poll(() => box.mails.find((m) => m.text?.match(/\b\d{6}\b/) && JSON.stringify(m.to).includes('jo@example.org')), { timeout: 15_000 }).toBeTruthy();
    const mail = box.mails.find((m) => JSON.stringify(m.to).includes('jo@example.org'))!;
    await code.fill(mail.text!.match(/\b(\d{6})\b/)![1]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.locator('.profile').textContent()).toContain('✓ Email verified');
    expect(page.errors).toEqual([]);
  });
});
