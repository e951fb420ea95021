/**
 * The rules alone: each hosted game played at random through its legalCommands, in this
 * process, through the kernel only (no core, no ports). What a game's rules cost a command:
 * listing the awaited seat's legal commands (what a `legalCommands` read and a bot run) and
 * one turn of the kernel (decide, its consequences, evolve: what every accepted command runs).
 * Each command is the one the service's random bot would pick (botCommand, seeded by the game's
 * seed and the turn), so every run plays the same games.
 */
import { botCommand, botSeed, matchLegalCommands, matchStatus, start, step, type GameModule, type MatchState } from '../src/domain/kernel/index.ts';
import { median, round } from './stats.ts';

export interface RulesResult {
  game: string;
  games: number;
  rounds: number;
  /** Turns taken, per round (random games may not end: each stops at the cap). */
  commands: number;
  /** Medians over the rounds, microseconds. */
  legalUs: number;
  turnUs: number;
}

const usSince = (start: bigint) => Number(process.hrtime.bigint() - start) / 1000;

/** One round: `games` random games of at most `cap` commands; total µs and counts of both calls. */
function playRound(module: GameModule, games: number, cap: number) {
  const t = { legalUs: 0, legal: 0, turnUs: 0, turns: 0 };
  for (let g = 0; g < games; g++) {
    const seed = `bench-rules-${g}`;
    let state: MatchState = start(module, { options: {}, players: module.seats.slice(0, module.maxPlayers) }, seed).state;
    for (let i = 0; i < cap; i++) {
      const status = matchStatus(module, state);
      const seat = status.stage === 'FINISHED' ? undefined : status.awaiting.find((p) => p.kind !== 'ANSWER_DRAW')?.seat;
      if (seat === undefined) break;
      const began = process.hrtime.bigint();
      const legal = matchLegalCommands(module, state, seat);
      t.legalUs += usSince(began);
      t.legal++;
      const command = botCommand('random', legal, botSeed(seed, i, seat));
      if (!command) break;
      const turnBegan = process.hrtime.bigint();
      const outcome = step(module, state, command, { kind: 'seat', seat }, { seed });
      t.turnUs += usSince(turnBegan);
      t.turns++;
      if (!outcome.ok) throw new Error(`${module.id}: a listed command was refused: ${outcome.reason}`);
      state = outcome.state;
    }
  }
  return t;
}

export function runRules(modules: GameModule[], games = 10, cap = 400, rounds = 3): RulesResult[] {
  return modules.map((module) => {
    playRound(module, Math.min(games, 2), cap); // warm-up, not counted
    const legal: number[] = [];
    const turn: number[] = [];
    let commands = 0;
    for (let r = 0; r < rounds; r++) {
      const t = playRound(module, games, cap);
      legal.push(t.legalUs / t.legal);
      turn.push(t.turnUs / t.turns);
      commands = t.turns;
    }
    return { game: module.id, games, rounds, commands, legalUs: round(median(legal), 1), turnUs: round(median(turn), 1) };
  });
}
