/**
 * Checks of what clients send that the store cannot hold: PostgreSQL's text and jsonb
 * refuse the NUL character, and its versions are 32-bit integers. Refused as the client's
 * mistake (BAD_REQUEST) before anything reaches the database.
 */
import { isDeepStrictEqual } from 'node:util';
import { AppError } from './errors.ts';

/**
 * Whether two values are the same once stored as JSON (undefined members dropped, dates as
 * strings): what a client sends again against what the store holds.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  const plain = (v: unknown) => JSON.parse(JSON.stringify(v ?? null));
  return isDeepStrictEqual(plain(a), plain(b));
}

/** The largest version (and `after`) the store counts: PostgreSQL's integer. */
export const MAX_VERSION = 2_147_483_647;

/** Where in `value` a string or an object key holds a NUL character ('' for the value itself), or null. */
export function nulAt(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '/' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulAt(value[i], `${path}/${i}`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key.includes('\u0000')) return `${path}/${key.replaceAll('\u0000', '\\u0000')}`;
      const found = nulAt(v, `${path}/${key}`);
      if (found !== null) return found;
    }
  }
  return null;
}

/** Refuses `value` (named `what`) when it holds a NUL character anywhere. */
export function refuseNul(what: string, value: unknown): void {
  const at = nulAt(value);
  if (at !== null) throw new AppError('BAD_REQUEST', `${what} must not contain the NUL character (\\u0000)${at === '/' ? '' : ` (at ${at})`}`);
}
