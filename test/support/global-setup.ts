/**
 * Starts one real PostgreSQL for the service tests: the embedded one in a throw-away
 * folder, or the server named by DATABASE_URL. Migrations are applied once here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbedded } from '../../src/persistence/embedded.ts';
import { migrate } from '../../src/persistence/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  let url = process.env.DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  let folder: string | undefined;
  if (!url) {
    folder = mkdtempSync(join(tmpdir(), 'wargame-test-pg-'));
    const embedded = await startEmbedded({ dataDir: join(folder, 'data'), persistent: false });
    url = embedded.url;
    stop = embedded.stop;
  }
  await migrate(url);
  project.provide('databaseUrl', url);
  return async () => {
    await stop?.();
    if (folder) rmSync(folder, { recursive: true, force: true });
  };
}
