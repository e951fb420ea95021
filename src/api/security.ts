/**
 * Security headers on every answer (helmet), for the web client above all: it keeps
 * the player's tokens in localStorage, so no script but its own may run, and no other site
 * may frame it (clickjacking into `resign`).
 * - Content-Security-Policy: everything from the service itself ('self'), no inline script
 *   or style attribute, no plugins, no <base>; WebSockets go to the same origin ('self'
 *   covers ws: and wss: there). GraphiQL sends a policy of its own (graphiql.ts).
 * - frame-ancestors 'none' and X-Frame-Options: DENY (for browsers without CSP 3).
 * - X-Content-Type-Options: nosniff; Referrer-Policy: no-referrer (a game link carries its
 *   id; the seat token in the fragment is never sent anyway).
 * upgrade-insecure-requests is left out: the service is also served over plain HTTP (local
 * play, tests), where it would send every asset request to an https:// that is not there.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  // The client's favicon is a data: URL; Swagger UI draws some icons as data: images.
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * The headers helmet sets, worked out once: they are the same on every answer (no nonce, no
 * directive computed per request). @fastify/helmet builds helmet's middleware again on every
 * request, which cost about 0.04 ms of CPU a command on the hot path.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = headersOf(
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // HTTPS for a year once a browser has seen it over HTTPS (ignored over plain HTTP); the
    // service's own host only: the operator's other subdomains are not ours to decide.
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false },
  }),
);

/** Runs a middleware that only sets headers on a response that records them. */
function headersOf(middleware: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = { setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)), removeHeader: () => {} };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error;
  });
  return headers;
}

export async function securityHeaders(app: FastifyInstance) {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    done();
  });
}

/**
 * /docs (Swagger UI) adds one <style> element of its own at run time: its pages allow inline
 * styles (scripts stay 'self' only). They hold no token but what a reader types into them.
 */
export function swaggerUiPolicy(header: string): string {
  return header.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");
}
