/**
 * A fingerprint of the domain code (src/domain): snapshots are tagged with it, so a change
 * to any game's rules never folds new events onto a state old rules produced.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const DOMAIN = new URL('../domain/', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : [join(dir, d.name)]))
    .sort();
}

export function domainFingerprint(dir = DOMAIN): string {
  const hash = createHash('sha256');
  for (const file of files(dir)) hash.update(relative(dir, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}
