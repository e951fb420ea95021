/**
 * The layers depend only on the ones below them: domain < app (the core, owning its
 * ports) < persistence (implements them), api (HTTP, GraphQL, WebSocket), workers (run the
 * core's jobs); src/server.ts, the composition root, is the only module that wires them
 * all. src/api only translates (it may name the domain's and the store's types, never call
 * them); the domain does no I/O. An `export ... from` and a dynamic `import('...')` count as
 * imports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../src/', import.meta.url).pathname;
const LAYERS = ['domain', 'app', 'persistence', 'api', 'workers'];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? (d.name === 'generated' ? [] : files(join(dir, d.name))) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []));
}

/** Each import of a source text: whether it is type-only, and the layer (or package, or top-level file) it reaches. */
function importsOf(text: string, file: string): { typeOnly: boolean; target: string }[] {
  const found = [
    ...[...text.matchAll(/^(?:import|export)\s+(type\s+)?[^'";]*?from\s+'([^']+)'/gms)].map((m) => ({ typeOnly: Boolean(m[1]), spec: m[2]! })),
    ...[...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((m) => ({ typeOnly: false, spec: m[1]! })),
    ...[...text.matchAll(/\btypeof import\(\s*'([^']+)'\s*\)/g)].map((m) => ({ typeOnly: true, spec: m[1]! })),
  ];
  return found.map(({ typeOnly, spec }) => ({ typeOnly, target: spec.startsWith('.') ? relative(SRC, join(file, '..', spec)).split('/')[0]! : spec }));
}

const imports = (file: string) => importsOf(readFileSync(file, 'utf8'), file);
const layer = (dir: string) => files(join(SRC, dir)).map((f) => ({ file: relative(SRC, f), imports: imports(f) }));
const isLayer = (target: string) => LAYERS.includes(target);

describe('layers', () => {
  it('reads every form of import: static, type-only, export ... from, dynamic', () => {
    const file = join(SRC, 'app', 'x.ts');
    const text = [
      "import { a } from '../persistence/a.ts';",
      "import type { B } from '../api/b.ts';",
      "export { c } from '../workers/c.ts';",
      "export type { D } from '../domain/d.ts';",
      "const e = await import('../persistence/e.ts');",
    ].join('\n');
    expect(importsOf(text, file)).toEqual([
      { typeOnly: false, target: 'persistence' },
      { typeOnly: true, target: 'api' },
      { typeOnly: false, target: 'workers' },
      { typeOnly: true, target: 'domain' },
      { typeOnly: false, target: 'persistence' },
    ]);
  });

  it('the domain imports nothing outside itself but pure libraries', () => {
    for (const { file, imports: list } of layer('domain')) {
      for (const i of list) expect(['domain', 'node:crypto', 'ajv'], `${file} imports ${i.target}`).toContain(i.target);
    }
  });

  it('the core (src/app) reaches no other layer: not the api, the workers, nor the persistence that implements its ports', () => {
    for (const { file, imports: list } of layer('app')) {
      for (const i of list) expect(['api', 'workers', 'persistence', 'server.ts'], `${file} imports ${i.target}`).not.toContain(i.target);
    }
  });

  it('the api layer calls only the core: the domain and the store by type alone, never the workers', () => {
    for (const { file, imports: list } of layer('api')) {
      for (const i of list) {
        expect(i.target, `${file} imports ${i.target}`).not.toBe('workers');
        expect(i.target, `${file} imports ${i.target}`).not.toBe('server.ts');
        if (i.target === 'domain' || i.target === 'persistence') expect(i.typeOnly, `${file} imports ${i.target} for more than types`).toBe(true);
      }
    }
  });

  it('the workers call only the core (and the domain)', () => {
    for (const { file, imports: list } of layer('workers')) {
      for (const i of list) if (isLayer(i.target) || i.target.endsWith('.ts')) expect(['app', 'domain', 'workers'], `${file} imports ${i.target}`).toContain(i.target);
    }
  });

  it('persistence implements the core\'s ports and reaches neither the api nor the workers', () => {
    for (const { file, imports: list } of layer('persistence')) {
      for (const i of list) expect(['api', 'workers', 'server.ts'], `${file} imports ${i.target}`).not.toContain(i.target);
    }
  });

  it('only src/server.ts wires the layers together: it alone reaches persistence and the api or the workers', () => {
    const wiring = files(SRC)
      .map((f) => ({ file: relative(SRC, f), targets: new Set(imports(f).map((i) => i.target)) }))
      .filter(({ targets }) => targets.has('persistence') && (targets.has('api') || targets.has('workers')))
      .map((f) => f.file);
    expect(wiring).toEqual(['server.ts']);
    const server = new Set(imports(join(SRC, 'server.ts')).map((i) => i.target));
    for (const l of LAYERS.filter((l) => l !== 'domain')) expect(server, `server.ts wires ${l}`).toContain(l);
  });
});
