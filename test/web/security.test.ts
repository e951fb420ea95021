/**
 * The security headers in a real Chromium (issue 24 §5): the web client's pages (the lobby,
 * the account, an invitation, a game of every type with its board) and GraphiQL load and
 * work under the service's Content-Security-Policy with not one violation reported, and no
 * other site can frame them. The headers themselves are checked over HTTP too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { findChromium, launchChromium } from './browser.ts';

const chromium = findChromium();
if (!chromium) console.warn('test/web: NO CHROMIUM FOUND, the security header browser tests are SKIPPED');

type Watched = Page & { violations: string[]; errors: string[] };

describe('security headers', () => {
  let server: TestServer;
  let browser: Browser | undefined;

  beforeAll(async () => {
    server = await startTestServer({ graphiql: true });
    if (chromium) browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('sends a strict policy, frame-ancestors \'none\', X-Frame-Options, nosniff and a Referrer-Policy on pages and the API', async () => {
    for (const path of ['/', '/games/00000000-0000-4000-8000-000000000000', '/join/some-code', '/api/game-types', '/unsubscribe']) {
      const res = await fetch(server.url + path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("object-src 'none'");
      expect(csp, path).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(res.headers.get('strict-transport-security'), path).toBe('max-age=31536000');
    }
    // Swagger UI: inline styles, but scripts from the service only, and not framed either.
    const docs = (await fetch(server.url + '/docs')).headers.get('content-security-policy') ?? '';
    expect(docs).toMatch(/script-src 'self';/);
    expect(docs).toContain("frame-ancestors 'none'");
    expect(docs).not.toContain('unsafe-eval');
    // The built page runs no inline script: every <script> has a src of the service's own.
    const html = await (await fetch(server.url + '/')).text();
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    // GraphiQL keeps its own, stricter policy.
    const graphiql = await fetch(server.url + '/graphiql');
    expect(graphiql.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(graphiql.headers.get('x-frame-options')).toBe('DENY');
  });

  describe.skipIf(!chromium)('in Chromium', () => {
    async function newPage(): Promise<Watched> {
      const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
      const page = (await context.newPage()) as Watched;
      page.setDefaultTimeout(15_000);
      page.violations = [];
      page.errors = [];
      // Both ways a violation shows: the DOM event and the console's "Refused to ...".
      await page.exposeFunction('reportViolation', (v: string) => page.violations.push(v));
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { reportViolation(v: string): void }).reportViolation(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
      });
      page.on('console', (m) => /Content Security Policy|Refused to/.test(m.text()) && page.violations.push(m.text()));
      page.on('pageerror', (e) => page.errors.push(e.message));
      return page;
    }

    it('loads every page of the web client, and a board of every game, with no policy violation', async () => {
      const types = (await server.gql('{ gameTypes { id seats } }')).data.gameTypes as { id: string; seats: string[] }[];
      const page = await newPage();
      await page.goto(server.url + '/');
      await page.getByLabel('Name', { exact: true }).fill('Csp');
      await page.getByRole('button', { name: 'Register' }).click();
      await expect.poll(() => page.locator('.account .signed-in').textContent()).toContain('Signed in as Csp');
      await page.goto(server.url + '/#account');
      await page.locator('.account').waitFor();
      for (const type of types.filter((t) => t.id !== 'guessing-game')) {
        const created = await server.rest('POST', '/api/games', { type: type.id, seats: type.seats.slice(0, 2).map((seat) => ({ seat, name: seat })) });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        const { seat, token } = created.body.seatTokens[0];
        await page.goto(`${server.url}/games/${created.body.game.id}#seat=${seat}&token=${token}`);
        await page.locator('.board svg').waitFor();
        await expect.poll(() => page.locator('.status').textContent()).not.toBe('');
      }
      const open = await server.rest('POST', '/api/games', { type: 'raid-on-wuchao', seats: [{ seat: 'cao', name: 'Host' }, { seat: 'yuan', open: true }] });
      await page.goto(`${server.url}/join/${open.body.inviteCode}`);
      await page.locator('main').getByText(/join/i).first().waitFor();
      expect(page.errors).toEqual([]);
      expect(page.violations).toEqual([]);
    });

    /** Opens `path`, waits for each selector, and expects no error and no violation. */
    async function loadsClean(path: string, ...selectors: string[]) {
      const page = await newPage();
      await page.goto(server.url + path);
      for (const selector of selectors) await page.locator(selector).first().waitFor();
      expect(page.errors).toEqual([]);
      expect(page.violations).toEqual([]);
    }

    it('runs GraphiQL under its own policy: the editor renders with no violation', () => loadsClean('/graphiql', '.graphiql-container'));

    it('runs Swagger UI at /docs under the policy (inline styles allowed there, scripts not)', () => loadsClean('/docs', '.swagger-ui .info', '.opblock'));

    it('cannot be framed by another site', async () => {
      const page = await newPage();
      const blocked: string[] = [];
      page.on('console', (m) => /frame-ancestors|X-Frame-Options/.test(m.text()) && blocked.push(m.text()));
      await page.setContent(`<iframe id="f" src="${server.url}/"></iframe>`);
      await expect.poll(() => blocked.length).toBeGreaterThan(0);
      // The frame holds no page of the client.
      const frame = page.frames().find((f) => f.url().startsWith(server.url));
      expect(await frame?.locator('#app').count().catch(() => 0) ?? 0).toBe(0);
    });
  });
});
