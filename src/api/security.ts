/**
 * Security headers on every answer (@fastify/helmet), for the web client above all: it keeps
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
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

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

export async function securityHeaders(app: FastifyInstance) {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // HTTPS for a year once a browser has seen it over HTTPS (ignored over plain HTTP); the
    // service's own host only: the operator's other subdomains are not ours to decide.
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false },
  });
}

/**
 * /docs (Swagger UI) adds one <style> element of its own at run time: its pages allow inline
 * styles (scripts stay 'self' only). They hold no token but what a reader types into them.
 */
export function swaggerUiPolicy(header: string): string {
  return header.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");
}
