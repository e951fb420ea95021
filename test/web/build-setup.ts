/**
 * Before the browser tests: build the web client (so the tests see the current web/ code)
 * and say loudly whether a Chromium was found. With CI=true and no browser, fail.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { findChromium } from './browser.ts';

export default async function setup() {
  const chromium = findChromium();
  if (!chromium) {
    const message = 'NO CHROMIUM FOUND: the browser tests (test/web) are SKIPPED. Install one with `apt-get install -y chromium` or set CHROMIUM_PATH.';
    if (process.env.CI === 'true') throw new Error(`${message} CI=true: a run without the browser tests fails.`);
    console.warn(`\n${'!'.repeat(100)}\n${message}\n${'!'.repeat(100)}\n`);
    return;
  }
  await build({ configFile: fileURLToPath(new URL('../../web/vite.config.ts', import.meta.url)), logLevel: 'warn' });
}
