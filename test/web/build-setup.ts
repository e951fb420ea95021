/**
 * Before the browser tests: build the web client (so the tests see the current web/ code,
 * typed from the current schema) and say loudly whether a Chromium was found. With CI=true
 * and no browser, fail.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { findChromium } from './browser.ts';

export default async function setup() {
  const chromium = findChromium();
  if (!chromium) {
    const message = 'NO CHROMIUM FOUND: the browser tests (test/web) are SKIPPED. Install one with `apt-get install -y chromium` or set CHROMIUM_PATH.';
    if (process.env.CI === 'true') throw new Error(`${message} CI=true: a run without the browser tests fails.`);
    console.warn(`\n${'!'.repeat(100)}\n${message}\n${'!'.repeat(100)}\n`);
    return;
  }
  // In a process of its own: codegen and the schema want one graphql module, not vitest's mix.
  execFileSync(process.execPath, [fileURLToPath(new URL('../../scripts/build-web.mjs', import.meta.url))], { stdio: 'inherit' });
}
