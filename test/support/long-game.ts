/**
 * A guessing game of many events, decided by the kernel's turn with the game's own seed
 * and appended in batches straight to the store (playing thousands of commands one by
 * one over HTTP would take a minute on these machines).
 */
import { matchStatus, step } from '../../src/domain/kernel/index.ts';
import type { Core } from '../../src/app/core.ts';
import type { NewEvent } from '../../src/persistence/event-store.ts';

export async function longGuessingGame(app: Core, events: number): Promise<string> {
  const created = await app.commands.create({ type: 'guessing-game', options: { target: 1_000_000_000 }, seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }] });
  const game = (await app.ports.games.game(created.game.id))!;
  const module = app.module(game.type);
  let { state, version } = await app.states.of(game);
  let batch: NewEvent[] = [];
  let from = version;
  for (let n = 0; version < events; n++) {
    const seat = n % 2 ? 'east' : 'north';
    const outcome = step(module, state, { type: 'guess', number: 1 + (n % 6) }, { kind: 'seat', seat }, { seed: game.seed });
    if (!outcome.ok) throw new Error(outcome.reason);
    state = outcome.state;
    for (const r of outcome.recorded) batch.push({ type: r.event.type, seat: r.seat, data: r.event, rolls: r.rolls ?? null });
    version += outcome.recorded.length;
    if (batch.length >= 500 || version >= events) {
      const status = matchStatus(module, state);
      const appended = await app.ports.games.append({
        gameId: game.id, expectedVersion: from, seat, command: { type: 'batch' }, idempotencyKey: null, events: batch,
        summary: { status: status.stage, awaiting: [...new Set(status.awaiting.map((p) => p.seat))], result: status.result }, outbox: [],
      });
      if (!appended.ok) throw new Error('append failed');
      batch = [];
      from = version;
    }
  }
  return game.id;
}
