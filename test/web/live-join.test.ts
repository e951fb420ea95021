/**
 * A join is pushed, not polled: while a game waits for players its page asks the service
 * for the game once, then listens on the gameEvents and seatsChanged subscriptions; the join
 * that takes the last seat starts the game and the waiting page turns into the board from
 * those events. A join that does not start the game appends no event: it arrives on
 * seatsChanged, as do a leave and a cancel, with no read of the game on a timer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { findChromium } from './browser.ts';
import { openHarness, type Checked, type Harness } from './harness.ts';
import { SHORT_RAID } from './fixtures.ts';

const chromium = findChromium();
if (!chromium) console.warn('test/web: NO CHROMIUM FOUND, the live join browser tests are SKIPPED');

/** Every `game(id:)` read with the game's fields (loadGame) the page sends. */
function countGameReads(page: Page): { n: number } {
  const seen = { n: 0 };
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/graphql') && /game\(id: \$id\) \{ id type status version/.test(r.postData() ?? '')) seen.n++;
  });
  return seen;
}

describe.skipIf(!chromium)('a join is pushed', () => {
  let t: Harness;
  beforeAll(async () => {
    t = await openHarness();
  });
  afterAll(() => t?.close());

  async function registerAs(page: Page, name: string) {
    await page.goto(t.server.url + '/');
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => page.locator('.account .signed-in').textContent()).toContain(`Signed in as ${name}`);
  }

  async function create(page: Page, type: string, kinds: Record<string, string>, opts: { options?: unknown; include?: string[]; visibility?: 'PUBLIC' } = {}) {
    await page.goto(t.server.url + '/');
    const card = page.locator(`.type-card[data-type="${type}"]`);
    for (const seat of opts.include ?? []) await card.getByLabel(`Play with ${seat}`).check();
    for (const [seat, kind] of Object.entries(kinds)) await card.locator(`select[name="kind-${seat}"]`).selectOption(kind);
    if (opts.visibility) await card.locator('select[name="visibility"]').selectOption(opts.visibility);
    if (opts.options) {
      await card.locator('summary').click();
      await card.locator('textarea[name="options"]').fill(JSON.stringify(opts.options));
    }
    await card.getByRole('button', { name: /^Create/ }).click();
    await page.waitForURL(/\/games\/[0-9a-f-]+$/);
    await expect.poll(() => page.locator('.open-game').textContent()).toContain('Waiting for players');
    return new URL(page.url()).pathname.split('/').pop()!;
  }

  it('the last seat taken in another browser turns the waiting page into the board, with no read of the game on a timer', async () => {
    const ann: Checked = await t.newPage();
    await registerAs(ann, 'Ann');
    await create(ann, 'raid-on-wuchao', { cao: 'me', yuan: 'open' }, { options: SHORT_RAID });
    const invite = await ann.getByLabel(/Invite link/).inputValue();
    const reads = countGameReads(ann);
    // Seven quiet seconds: a page polling every 3 s would have read the game twice.
    await ann.waitForTimeout(7_000);
    expect(reads.n).toBe(0);
    expect(await ann.locator('.board svg').count()).toBe(0);

    const guest: Checked = await t.newPage({ width: 390, height: 844 });
    await guest.goto(invite);
    await guest.getByLabel('Your name').fill('Guest');
    await guest.getByRole('button', { name: 'Join as Yuan' }).click();
    await guest.locator('.board svg').waitFor();
    // Ann's page learns it from the setup's events: the board, the guest on its seat.
    await ann.locator('.board svg').waitFor({ timeout: 5_000 });
    await expect.poll(() => ann.locator('.seats [data-seat="yuan"]').textContent()).toContain('Guest');
    expect(reads.n).toBeGreaterThan(0);
    expect(reads.n).toBeLessThanOrEqual(3); // read after the events, not over and over
    for (const page of [ann, guest]) expect(page.errors).toEqual([]);
  });

  it('a join that leaves a seat open, a leave and a cancel are pushed to the other browser, with no read of the game', async () => {
    const di: Checked = await t.newPage();
    await registerAs(di, 'Di');
    const id = await create(di, 'chinese-warlords', { red: 'me', blue: 'open', green: 'open' }, { include: ['green'], visibility: 'PUBLIC' });
    const reads = countGameReads(di);
    const g: Checked = await t.newPage();
    await g.goto(`${t.server.url}/games/${id}`);
    await g.getByLabel('Your name').fill('Passer-by');
    await g.getByRole('button', { name: 'Join as Blue' }).click();
    await expect.poll(() => g.locator('.leave-cancel').count()).toBe(1);
    // Di's page shows who took the seat without asking: pushed on seatsChanged.
    await expect.poll(() => di.locator('.open-game [data-seat="blue"]').textContent(), { timeout: 5_000 }).toContain('Passer-by');
    // A third browser, a spectator on a phone, watches the seats too.
    const phone: Checked = await t.newPage({ width: 390, height: 844 });
    await phone.goto(`${t.server.url}/games/${id}`);
    await expect.poll(() => phone.locator('.open-game li[data-seat="blue"]').textContent()).toContain('Passer-by');
    await g.getByRole('button', { name: 'Leave this game' }).click();
    await expect.poll(() => di.locator('.open-game [data-seat="blue"]').textContent(), { timeout: 5_000 }).not.toContain('Passer-by');
    await expect.poll(() => phone.locator('.open-game li[data-seat="blue"]').textContent(), { timeout: 5_000 }).not.toContain('Passer-by');
    expect(reads.n).toBe(0); // none for the join or the leave
    await di.getByRole('button', { name: 'Cancel the game' }).click();
    await expect.poll(() => phone.locator('.open-game').textContent(), { timeout: 5_000 }).toContain('This game was cancelled');
    // Di's own read after cancelling: the push may reach the phone before Di's page sends it.
    await expect.poll(() => reads.n).toBe(1);
    for (const page of [di, g, phone]) expect(page.errors).toEqual([]);
  });
});
