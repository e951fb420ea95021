/**
 * What a new player meets, in a real Chromium at desktop (1280x800) and phone (390x844)
 * sizes: whose turn it is from the tab's title and icon and from the turn bar that stays in
 * view; a game the client has no drawing for (the tests' guessing game, hosted as a fifth
 * game) played through the generic board with its name, description and seat colours
 * from gameTypes; and no serious or critical axe-core finding on the lobby, the account
 * settings and a game page of each type.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { findChromium } from './browser.ts';
import { createFromLobby as createFromLobby_, openHarness, type Harness } from './harness.ts';
import { SHORT_RAID } from './fixtures.ts';

const chromium = findChromium();
if (!chromium) console.warn('test/web: NO CHROMIUM FOUND, the player browser tests are SKIPPED');

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

describe.skipIf(!chromium)('the client for players, at both sizes', () => {
  let t: Harness;
  beforeAll(async () => {
    t = await openHarness();
  });
  afterAll(() => t?.close());
  // bypassCSP: axe-core is injected by the test, not served by the service.
  const newPage = (viewport = DESKTOP) => t.newPage(viewport, { bypassCSP: true });

  /** axe-core's serious and critical findings on the page as it is now. */
  async function axeFindings(page: Page): Promise<string[]> {
    await page.evaluate(AXE);
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; impact: string; nodes: { target: string[]; html: string }[] }[] }> } }).axe;
      return (await axe.run(document, { resultTypes: ['violations'] })).violations;
    });
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} ${n.html.slice(0, 200)}`).join(', ')}`);
  }

  const createFromLobby = (page: Page, type: string, names: Record<string, string>, options?: unknown) => createFromLobby_(page, t.server.url, type, names, options);

  const inView = async (page: Page, selector: string) => {
    const box = await page.locator(selector).boundingBox();
    const height = page.viewportSize()!.height;
    return !!box && box.y >= 0 && box.y + Math.min(box.height, 40) <= height;
  };

  it('a fifth game (the guessing game) plays in the generic board, named, described and coloured by gameTypes', async () => {
    const { data } = await t.server.gql('{ gameTypes { id name description seatDetails { id name colour } } }');
    const guessing = data.gameTypes.find((t: { id: string }) => t.id === 'guessing-game');
    expect(guessing).toBeTruthy();
    for (const size of [DESKTOP, PHONE]) {
      const page = await newPage(size);
      await page.goto(t.server.url + '/');
      const card = page.locator('.type-card[data-type="guessing-game"]');
      await expect.poll(() => card.locator('h3').textContent()).toBe(guessing.name);
      if (guessing.description) expect(await card.textContent()).toContain(guessing.description);
      // The seat's dot has the colour gameTypes gives it.
      const north = guessing.seatDetails.find((d: { id: string }) => d.id === 'north');
      const dot = await card.locator('.seat-row .dot').first().evaluate((el) => getComputedStyle(el).backgroundColor);
      const hex = north.colour.replace('#', '');
      expect(dot).toBe(`rgb(${[0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`);

      // Hot seat: both seats in this browser; each guesses by the turn bar's buttons.
      await createFromLobby(page, 'guessing-game', { north: 'Nell', east: 'Ed' }, { target: 1 });
      expect(await page.locator('.game-title').textContent()).toContain(guessing.name);
      await expect.poll(() => page.locator('.board .generic-view').textContent()).toMatch(/Target\s*1/);
      for (let i = 0; i < 6; i++) {
        if ((await page.locator('.status').textContent())?.includes('Game over')) break;
        const button = page.locator('.turn-bar .actions .general button', { hasText: /number 1\b/i });
        await button.first().click();
        await expect.poll(async () => (await page.locator('.alert').textContent()) ?? '').not.toContain('Sending');
      }
      await expect.poll(() => page.locator('.status').textContent()).toContain('Game over');
      await expect.poll(() => page.locator('ol.log li').count()).toBeGreaterThan(2);
      expect(await axeFindings(page)).toEqual([]);
      expect(page.errors).toEqual([]);
    }
  });

  it('says whose turn it is in the tab title and icon, and keeps the prompt and the main action in view', async () => {
    const ann = await newPage(DESKTOP);
    await createFromLobby(ann, 'raid-on-wuchao', { cao: 'Ann', yuan: 'Bo' }, SHORT_RAID);
    await ann.locator('.seats summary').click();
    const link = await ann.locator('input[aria-label="Link for yuan"]').inputValue();
    await ann.locator('button.hand-over[data-seat="yuan"]').click();
    await expect.poll(() => ann.locator('.seat-bar').textContent()).toContain('Ann (Cao)');

    const bo = await newPage(PHONE);
    await bo.goto(link);
    await bo.locator('.board svg').waitFor();
    // Setup: Yuan places first. Bo's tab says it is his turn; Ann's names whom she waits for.
    await expect.poll(() => bo.title()).toMatch(/^Your turn · Raid on Wuchao/);
    await expect.poll(() => ann.title()).toMatch(/Raid on Wuchao · waiting for Bo \(Yuan\)/);
    const icon = (page: Page) => page.locator('link[rel=icon]').getAttribute('href');
    expect(decodeURIComponent((await icon(bo)) ?? '')).toContain('#2f855a');
    expect(decodeURIComponent((await icon(ann)) ?? '')).not.toContain('#2f855a');

    // On the phone the prompt is on the first screen, and stays in view down at the log.
    expect(await inView(bo, '.turn-bar .status')).toBe(true);
    await bo.locator('ol.log').scrollIntoViewIfNeeded();
    await bo.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => inView(bo, '.turn-bar .status')).toBe(true);
    expect(await bo.locator('.turn-bar .status').textContent()).toContain('You (setup)');

    await bo.evaluate(() => window.scrollTo(0, 0));
    await bo.locator('[data-piece="zhang-he"]').click();
    await bo.locator('[data-place="H2"].dest').click();
    // The turn passes: the titles swap.
    await expect.poll(() => ann.title()).toMatch(/^Your turn · Raid on Wuchao/);
    await expect.poll(() => bo.title()).toMatch(/waiting for Ann \(Cao\)/);
    // Ann's main action (End movement) sits in the turn bar, in view after a scroll to the log.
    await ann.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => inView(ann, '.turn-bar .actions .general')).toBe(true);

    // Refusals name players, not seat ids, and show no schema paths.
    const send = async (page: Page, json: string) => {
      if (!(await page.locator('.all-commands').getAttribute('open'))) await page.locator('.all-commands > summary').click();
      await page.getByRole('textbox', { name: 'A command as JSON' }).fill(json);
      await page.getByRole('button', { name: 'Send', exact: true }).click();
    };
    await send(bo, '{"type":"endMovement"}');
    await expect.poll(() => bo.locator('.turn-bar .alert').textContent()).toMatch(/Refused \(NOT_YOUR_TURN\): .*Ann \(Cao\)/);
    await send(ann, '{"type":"fly"}');
    await expect.poll(() => ann.locator('.turn-bar .alert').textContent()).toContain('Refused (BAD_REQUEST)');
    expect(await ann.locator('.turn-bar .alert').textContent()).not.toMatch(/\(root\)|command\//);
    for (const page of [ann, bo]) expect(page.errors).toEqual([]);
  });

  it('boards on a phone: no text under 11 px, hexes of 44 px, zoom by buttons; Chinese Warlords explains its letters; Warchon hides unit ids', async () => {
    const page = await newPage(PHONE);
    await createFromLobby(page, 'chinese-warlords', { red: 'Red player', blue: 'Blue player' });
    await page.locator('.board svg').waitFor();
    /** The smallest text on the board, and the smallest hex, in CSS pixels as drawn. */
    const measure = () => page.evaluate(() => {
      const svg = document.querySelector('.board svg') as SVGSVGElement;
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent?.trim()).map((t) => Number.parseFloat(getComputedStyle(t).fontSize) * scale);
      const hexes = [...svg.querySelectorAll('.hex')].map((g) => Math.min(g.getBoundingClientRect().width, g.getBoundingClientRect().height));
      return { text: Math.min(...texts), hex: Math.min(...hexes), width: svg.getBoundingClientRect().width };
    });
    const legible = await measure();
    // Nothing runs off the screen's edge: the board pans inside its own box.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width + 1);
    expect(legible.text).toBeGreaterThanOrEqual(10.99);
    expect(legible.hex).toBeGreaterThanOrEqual(44);
    // The whole board at once, then zoomed in again by the button.
    await page.getByRole('button', { name: 'Whole board' }).click();
    await expect.poll(async () => (await measure()).width).toBeLessThan(legible.width);
    const whole = (await measure()).width;
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(async () => (await measure()).width).toBeGreaterThan(whole * 1.3);
    // A legend says what the letters are; a stack says what it holds in words.
    expect(await page.locator('.summary .legend.units').textContent()).toMatch(/T thugs/);
    expect(await page.locator('.hex .stack').count()).toBeGreaterThan(0);
    const stack = page.locator('.hex', { has: page.locator('.stack') }).first();
    expect(await stack.getAttribute('aria-label')).toMatch(/\d+ (peasants|thugs|bodyguards|lieutenant|warlord)/);
    expect(page.errors).toEqual([]);

    const war = await newPage(PHONE);
    await createFromLobby(war, 'warchon', { azuthkan: 'Az', celestine: 'Ce' });
    await war.locator('[data-piece^="roster:"]').first().click();
    await war.locator('.spread.dest').first().click();
    await expect.poll(() => war.locator('ol.log').textContent()).toMatch(/placed .* in spread/);
    await war.getByRole('button', { name: /^Celestine/ }).click();
    await expect.poll(() => war.locator('.board svg').textContent()).toContain('Hidden unit');
    expect(await war.locator('.board svg').textContent()).not.toMatch(/azuthkan-\d/);
    expect(war.errors).toEqual([]);
  });

  it('runs under a strict Content-Security-Policy: no inline script, no style attribute in markup', async () => {
    const page = await t.newPage(PHONE);
    const violations: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) => console.error(`Content Security Policy: ${e.violatedDirective} blocked ${e.blockedURI}`)));
    // The service's own policy (src/api/security.ts, helmet) is the one in force: the page is
    // served with it, so what is checked here is what players get.
    await createFromLobby(page, 'chinese-warlords', { red: 'Red player', blue: 'Blue player' });
    await page.locator('.summary .legend').first().waitFor();
    // Live: the subscription's socket is allowed by connect-src 'self'.
    await expect.poll(() => page.locator('#conn').textContent(), { message: violations.join('\n') }).toBe('live');
    await page.locator('[data-piece="recruit:peasants"]').click();
    await page.locator('.hex.dest').first().click();
    await expect.poll(() => page.locator('ol.log').textContent(), { message: violations.join('\n') }).toMatch(/recruited Peasants in/);
    expect(await page.locator('link[rel=icon]').getAttribute('href')).toMatch(/^data:image\/svg\+xml/);
    expect(violations).toEqual([]);
    expect(page.errors).toEqual([]);
    // The policy is in force: a style attribute set in markup is refused.
    await page.evaluate(() => document.body.setAttribute('style', 'outline: 1px solid red'));
    // (The browser logs a refusal too, so the count is of console lines, not of refusals.)
    await expect.poll(() => violations.length).toBeGreaterThan(0);
  });

  it('an invite link shows what the game is and its clock before the seat is taken', async () => {
    const ann = await newPage(DESKTOP);
    await ann.goto(t.server.url + '/');
    await ann.getByLabel('Name', { exact: true }).fill('Clocked Ann');
    await ann.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => ann.locator('.account .signed-in').textContent()).toContain('Signed in as');
    const card = ann.locator('.type-card[data-type="warchon"]');
    await card.locator('select[name="kind-celestine"]').selectOption('open');
    await card.locator('select[name="clock"]').selectOption('86400');
    await card.getByRole('button', { name: /^Create/ }).click();
    const invite = await ann.getByLabel(/Invite link/).inputValue();
    const guest = await newPage(PHONE);
    await guest.goto(invite);
    await expect.poll(() => guest.locator('.open-game .clock-note').textContent()).toContain('Clock: 1 day per move');
    const { data } = await t.server.gql('{ gameTypes { id description } }');
    expect(await guest.locator('.open-game .about-game').textContent()).toBe(data.gameTypes.find((t: { id: string }) => t.id === 'warchon').description);
    expect(await guest.getByRole('button', { name: /^Join as/ }).count()).toBe(1);
    expect(await axeFindings(guest)).toEqual([]);
  });

  it('no serious or critical axe finding on the lobby, the account settings and a game page of each type', async () => {
    for (const size of [DESKTOP, PHONE]) {
      const page = await newPage(size);
      await page.goto(t.server.url + '/');
      await page.locator('.type-card').first().waitFor();
      expect(await axeFindings(page), 'lobby, signed out').toEqual([]);
      await page.getByLabel('Name', { exact: true }).fill(`Axe ${size.width}`);
      await page.getByRole('button', { name: 'Register' }).click();
      await expect.poll(() => page.locator('.account .signed-in').textContent()).toContain('Signed in as');
      await page.goto(t.server.url + '/#account');
      await page.locator('.account .signed-in').waitFor();
      expect(await axeFindings(page), 'account settings').toEqual([]);
      const types = ['raid-on-wuchao', 'three-kingdoms-combined-arms', 'chinese-warlords', 'warchon', 'guessing-game'];
      for (const type of types) {
        await page.goto(t.server.url + '/');
        const card = page.locator(`.type-card[data-type="${type}"]`);
        // Every seat a named player: the game starts at once, in this browser.
        await card.locator('select[name^="kind-"]').first().waitFor();
        for (const select of await card.locator('select[name^="kind-"]').all()) await select.selectOption('named');
        await card.getByRole('button', { name: /^Create/ }).click();
        await page.waitForURL(/\/games\/[0-9a-f-]+$/);
        await page.locator('.board > *').first().waitFor().catch(async (e) => {
          throw new Error(`${type}: no board on ${page.url()}: ${await page.locator('main').textContent()}`, { cause: e });
        });
        expect(await axeFindings(page), `${type} at ${size.width}px`).toEqual([]);
      }
      expect(page.errors).toEqual([]);
    }
  });
});
