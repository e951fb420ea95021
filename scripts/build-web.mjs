// Builds the web client (web/ → dist/web) with Vite. Run by npm install (postinstall) and
// before the tests. Without Vite (an install with --omit=dev) it says so and skips: the
// service then answers / with a note that the client is not built.
import { fileURLToPath } from 'node:url';

let vite;
try {
  vite = await import('vite');
} catch {
  console.warn('web client: vite is not installed (dev dependencies omitted?), so the client is not built');
  process.exit(0);
}
await vite.build({ configFile: fileURLToPath(new URL('../web/vite.config.ts', import.meta.url)), logLevel: 'warn' });
console.log('web client built into dist/web');
