/**
 * The core alone: commands through createCore on the memory ports (no HTTP, no database), in
 * this process. What a command costs the core itself (validation, the kernel's turn, the
 * outbox, the planners, redaction), the floor under every figure through the server.
 */
import { createCore } from '../src/app/core.ts';
import { memoryPorts } from '../src/app/memory/index.ts';
import { guessingGame } from '../test/support/guessing-game.ts';
import { median, msSince, round } from './stats.ts';

export interface CoreResult {
  games: number;
  commands: number;
  /** Median over the rounds of one command's time, microseconds. */
  medianUsPerCommand: number;
  commandsPerSecond: number;
}

export async function runCore(games: number, commandsPerGame: number, rounds = 5): Promise<CoreResult> {
  const samples: number[] = [];
  for (let r = 0; r <= rounds; r++) {
    const core = createCore(memoryPorts(), { games: [guessingGame], rulesFingerprint: 'bench' });
    const created = await Promise.all(Array.from({ length: games }, () => core.commands.create({ type: 'guessing-game', options: { target: 1000 }, seats: [{ seat: 'north', name: 'N' }, { seat: 'east', name: 'E' }] })));
    const start = process.hrtime.bigint();
    for (let i = 0; i < commandsPerGame; i++) {
      const seat = i % 2 ? 'east' : 'north';
      await Promise.all(created.map(({ game }) => core.commands.execute({ kind: 'seat', gameId: game.id, seat }, game.id, { type: 'guess', number: 1 + (i % 6) })));
    }
    if (r > 0) samples.push((msSince(start) * 1000) / (games * commandsPerGame)); // the first round warms up
  }
  const us = median(samples);
  return { games, commands: games * commandsPerGame, medianUsPerCommand: round(us, 1), commandsPerSecond: Math.round(1_000_000 / us) };
}
