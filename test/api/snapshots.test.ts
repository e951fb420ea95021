import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStore } from '../../src/persistence/event-store.ts';
import { SNAPSHOT_EVERY, States } from '../../src/app/states.ts';
import { createGuessingGame } from '../support/client.ts';
import { guessingGame } from '../support/guessing-game.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 100_000, rulesFingerprint: 'rules-a' });
});
afterAll(async () => server?.close());

describe('snapshots', () => {
  it('are written as a long game passes each multiple of SNAPSHOT_EVERY, and loading from one gives the state a full fold gives', async () => {
    const { id } = await createGuessingGame(server, ['north', 'east'], 1_000_000);
    const service = { store: server.core.ports.games as EventStore, execute: server.core.commands.execute.bind(server.core.commands) };
    // each round: two guesses and a roll = 3 events; commands run as plain calls, no HTTP
    while ((await service.store.game(id))!.version <= SNAPSHOT_EVERY + 10) {
      await service.execute({ kind: 'seat', gameId: id, seat: 'north' }, id, { type: 'guess', number: 1 });
      await service.execute({ kind: 'seat', gameId: id, seat: 'east' }, id, { type: 'guess', number: 6 });
    }
    const game = (await service.store.game(id))!;
    const snap = await service.store.snapshot(id, undefined, 'rules-a');
    expect(snap!.version).toBeGreaterThanOrEqual(SNAPSHOT_EVERY);
    expect(snap!.version).toBeLessThan(SNAPSHOT_EVERY + 3);

    // A fresh service has no cache: one loads through the snapshot...
    const viaSnapshot = await new States(service.store, () => guessingGame, 'rules-a').of(game);
    // ...the other without any snapshot.
    const noSnapshots: EventStore = Object.create(service.store);
    noSnapshots.snapshot = async () => null;
    const fullFold = await new States(noSnapshots, () => guessingGame, '').of(game);
    expect(viaSnapshot.version).toBe(game.version);
    expect(viaSnapshot.state).toEqual(fullFold.state);
    // and a replay before the snapshot still folds from the start
    const early = await new States(service.store, () => guessingGame, 'rules-a').of(game, 10);
    expect(early.version).toBe(10);

    // Rules code that changed since the snapshot was written ignores it and folds the events again.
    const reads: number[] = [];
    const counting: EventStore = Object.create(service.store);
    counting.events = (gameId, after, until, limit) => (reads.push(after ?? 0), service.store.events(gameId, after, until, limit));
    const newRules = await new States(counting, () => guessingGame, 'rules-b').of(game);
    expect(reads).toEqual([0]);
    expect(newRules.state).toEqual(fullFold.state);
    reads.length = 0;
    await new States(counting, () => guessingGame, 'rules-a').of(game);
    expect(reads).toEqual([snap!.version]);
  });

  it('are tagged with a fingerprint of the domain code that changes with any rules file', async () => {
    const { domainFingerprint } = await import('../../src/app/fingerprint.ts');
    const { mkdtempSync, writeFileSync, mkdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'rules-'));
    mkdirSync(join(dir, 'game'));
    writeFileSync(join(dir, 'game', 'evolve.ts'), 'export const x = 1;');
    const before = domainFingerprint(dir);
    expect(domainFingerprint(dir)).toBe(before);
    writeFileSync(join(dir, 'game', 'evolve.ts'), 'export const x = 2;');
    expect(domainFingerprint(dir)).not.toBe(before);
    expect(domainFingerprint()).toMatch(/^[0-9a-f]{16}$/);
  });
});
