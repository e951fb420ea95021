/**
 * The layers depend only on the ones below them: api → app → domain, persistence.
 * src/api only translates (it may name the domain's and the store's types, never call
 * them); the domain does no I/O.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../src/', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? (d.name === 'generated' ? [] : files(join(dir, d.name))) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []));
}

/** Each import of a file: whether it is type-only, and the layer (or package) it reaches. */
function imports(file: string): { typeOnly: boolean; target: string }[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^import\s+(type\s+)?[^'"]*?from\s+'([^']+)'/gms)].map((m) => {
    const spec = m[2]!;
    const target = spec.startsWith('.') ? relative(SRC, join(file, '..', spec)).split('/')[0]! : spec;
    return { typeOnly: Boolean(m[1]), target };
  });
}

const layer = (dir: string) => files(join(SRC, dir)).map((f) => ({ file: relative(SRC, f), imports: imports(f) }));

describe('layers', () => {
  it('the domain imports nothing outside itself but pure libraries', () => {
    for (const { file, imports: list } of layer('domain')) {
      for (const i of list) expect(['domain', 'node:crypto', 'ajv'], `${file} imports ${i.target}`).toContain(i.target);
    }
  });

  it('the application layer never reaches up into the api', () => {
    for (const { file, imports: list } of layer('app')) {
      for (const i of list) expect(i.target, `${file} imports ${i.target}`).not.toBe('api');
    }
  });

  it('the api layer calls only the application layer: the domain and the store by type alone', () => {
    for (const { file, imports: list } of layer('api')) {
      for (const i of list) {
        if (i.target === 'domain' || i.target === 'persistence') expect(i.typeOnly, `${file} imports ${i.target} for more than types`).toBe(true);
      }
    }
  });
});
