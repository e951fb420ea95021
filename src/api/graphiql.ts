/**
 * GraphiQL at /graphiql, served whole by the service: React, ReactDOM and GraphiQL come from
 * their npm packages (the versions mercurius' own page would fetch from a CDN), so the page
 * works offline and under a strict Content-Security-Policy (scripts and styles from 'self').
 * mercurius' `graphiql` option is left off: its page loads those files from unpkg.com.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

const assets: Record<string, { file: () => string; type: string }> = {
  'react.production.min.js': { file: () => join(packageDir('react'), 'umd', 'react.production.min.js'), type: 'application/javascript' },
  'react-dom.production.min.js': { file: () => join(packageDir('react-dom'), 'umd', 'react-dom.production.min.js'), type: 'application/javascript' },
  'graphiql.min.js': { file: () => join(packageDir('graphiql'), 'graphiql.min.js'), type: 'application/javascript' },
  'graphiql.min.css': { file: () => join(packageDir('graphiql'), 'graphiql.min.css'), type: 'text/css' },
};

/** The page's policy: nothing from another origin, no inline script. */
export const GRAPHIQL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // GraphiQL sets element styles through the DOM, which a policy allows; its fonts are data: URLs.
  "style-src 'self'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const page = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>GraphiQL · Wargame service</title>
  <meta name="robots" content="noindex">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="/graphiql/assets/graphiql.min.css">
  <link rel="stylesheet" href="/graphiql/page.css">
</head>
<body>
  <div id="graphiql">Loading GraphiQL…</div>
  <script src="/graphiql/assets/react.production.min.js"></script>
  <script src="/graphiql/assets/react-dom.production.min.js"></script>
  <script src="/graphiql/assets/graphiql.min.js"></script>
  <script src="/graphiql/main.js"></script>
</body>
</html>
`;

const pageCss = 'body { margin: 0; overflow: hidden; } #graphiql { height: 100vh; }\n';

// Queries and mutations over HTTP, subscriptions over graphql-transport-ws, both on /graphql.
const mainJs = `/* global React, ReactDOM, GraphiQL */
(function () {
  var ws = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  var fetcher = GraphiQL.createFetcher({
    url: window.location.origin + '/graphql',
    subscriptionUrl: ws + '//' + window.location.host + '/graphql'
  });
  ReactDOM.render(
    React.createElement(GraphiQL, { fetcher: fetcher, headerEditorEnabled: true, shouldPersistHeaders: true }),
    document.getElementById('graphiql')
  );
})();
`;

export async function graphiqlRoutes(app: FastifyInstance) {
  const cache = new Map<string, Buffer>();
  const headers = { 'content-security-policy': GRAPHIQL_CSP, 'x-content-type-options': 'nosniff' };

  app.get('/graphiql', async (_req, reply) => reply.headers(headers).type('text/html; charset=utf-8').send(page));
  app.get('/graphiql/main.js', async (_req, reply) => reply.headers(headers).type('application/javascript').send(mainJs));
  app.get('/graphiql/page.css', async (_req, reply) => reply.headers(headers).type('text/css').send(pageCss));
  app.get('/graphiql/assets/:name', async (req, reply) => {
    const name = (req.params as { name: string }).name;
    const asset = Object.hasOwn(assets, name) ? assets[name] : undefined;
    if (!asset) return reply.callNotFound();
    let body = cache.get(name);
    if (!body) {
      body = readFileSync(asset.file());
      cache.set(name, body);
    }
    // The file names carry no version: a day's cache, revalidated after.
    return reply
      .headers({ ...headers, 'cache-control': 'public, max-age=86400' })
      .type(asset.type)
      .send(body);
  });
}
