/**
 * A simple player for whole-game tests: place units towards the middle, attack whenever
 * possible (Generals and wounded units first), move a few units per turn towards the
 * nearest enemy General, retreat anywhere. It only ever picks from the listed commands.
 */
import type { Command } from '../../../src/domain/kernel/index.ts';
import type { TkState } from '../../../src/domain/three-kingdoms-combined-arms/index.ts';
import { distance } from '../../../src/domain/three-kingdoms-combined-arms/board.ts';

export function pickCommand(s: TkState, seat: string, options: Command[], maxMoves = 4): Command {
  if (s.stage === 'SETUP') {
    // Front squares first: the ones nearest the middle of the board.
    const score = (c: Command) => distance(c.square as string, 'F6') + distance(c.square as string, 'G7');
    return options.reduce((a, b) => (score(b) < score(a) ? b : a));
  }
  const attacks = options.filter((c) => c.type === 'attack');
  if (attacks.length) {
    const score = (c: Command) => {
      const t = s.units.find((u) => u.id === c.target)!;
      return (t.kind === 'general' ? 10 : 0) + (s.damage[t.id] ?? 0) * 3;
    };
    return attacks.reduce((a, b) => (score(b) > score(a) ? b : a));
  }
  const moves = options.filter((c) => c.type === 'move');
  if (moves.length && s.moved.length < maxMoves) {
    const enemies = s.units.filter((u) => u.seat !== seat);
    const targets = enemies.some((u) => u.kind === 'general') ? enemies.filter((u) => u.kind === 'general') : enemies;
    const nearest = (square: string) => Math.min(...targets.map((t) => distance(square, t.square)));
    const gain = (c: Command) => nearest(s.units.find((u) => u.id === c.unit)!.square) - nearest(c.to as string);
    const best = moves.reduce((a, b) => (gain(b) > gain(a) ? b : a));
    if (gain(best) > 0) return best;
  }
  return options.find((c) => c.type === 'endMovement' || c.type === 'endTurn') ?? options[0]!;
}
