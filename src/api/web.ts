/**
 * Serves the play-by-web client built from web/ (npm run build:web, run by npm install):
 * its index.html for `/` and the client's own routes, and the bundled assets. The client
 * talks to the service only through the public GraphQL API.
 */
import { readFile, readdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

const DEFAULT_ROOT = fileURLToPath(new URL('../../dist/web', import.meta.url));
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export async function webRoutes(app: FastifyInstance, opts: { root?: string } = {}) {
  const root = opts.root ?? DEFAULT_ROOT;

  async function page(reply: FastifyReply) {
    try {
      const html = await readFile(join(root, 'index.html'));
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
    } catch {
      return reply.code(503).type('text/plain; charset=utf-8').send('The web client is not built: run `npm run build:web` (npm install does it).');
    }
  }

  // The client's routes: the page decides what to show from the path.
  app.get('/', (_req, reply) => page(reply));
  app.get('/games/:id', (_req, reply) => page(reply));
  app.get('/join/:code', (_req, reply) => page(reply));

  // Only files the build wrote are served (names carry a content hash: cache them for good).
  app.get('/assets/:file', async (req, reply) => {
    const { file } = req.params as { file: string };
    const dir = join(root, 'assets');
    const names = await readdir(dir).catch(() => [] as string[]);
    if (!names.includes(file)) return reply.callNotFound();
    return reply
      .type(TYPES[extname(file)] ?? 'application/octet-stream')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(await readFile(join(dir, file)));
  });
}
