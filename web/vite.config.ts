// Builds the play-by-web client into dist/web (served by src/api/web.ts). Every asset is
// bundled: the page makes no request outside the service.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    sourcemap: true,
    target: 'es2022',
  },
});
