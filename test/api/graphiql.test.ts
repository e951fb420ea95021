/**
 * GraphiQL is served whole by the service: a page that loads nothing from another origin,
 * under a Content-Security-Policy that forbids it, so it works offline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ graphiql: true });
});
afterAll(async () => server.close());

describe('GraphiQL', () => {
  it('serves a page whose scripts and styles all come from the service, under a strict policy', async () => {
    const res = await fetch(`${server.url}/graphiql`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await res.text();
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThanOrEqual(5);
    for (const ref of refs) expect(ref).toMatch(/^\/graphiql\//);
    // Nothing inline: a <script> without a src (whatever its attributes, e.g. type="module"), no <style>.
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>|<style\b/);
    for (const ref of refs) {
      const asset = await fetch(`${server.url}${ref}`);
      expect(asset.status, ref).toBe(200);
      expect(asset.headers.get('content-type'), ref).toMatch(ref.endsWith('.css') ? /^text\/css/ : /^application\/javascript/);
      const body = await asset.text();
      expect(body.length, ref).toBeGreaterThan(0);
      expect(body, ref).not.toMatch(/unpkg\.com|cdn\.jsdelivr|cdnjs/);
    }
  });

  it('serves the named assets only', async () => {
    expect((await fetch(`${server.url}/graphiql/assets/package.json`)).status).toBe(404);
    expect((await fetch(`${server.url}/graphiql/assets/..%2F..%2Fpackage.json`)).status).toBe(404);
  });
});
