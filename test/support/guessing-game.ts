/**
 * A small game written for the tests of the kernel and the service, not for players.
 * Every round all players secretly guess a number 1-6 at once (several seats awaited,
 * hidden choices), then a die is rolled: whoever guessed at most the roll scores their
 * guess. First to the target wins. Setup rolls who is "first" to exercise seeded setup.
 */
import { accept, refuse, type GameModule, type Random, type SetupInput, type Status } from '../../src/domain/kernel/index.ts';

export interface GuessOptions {
  target: number;
}

export interface GuessState {
  target: number;
  players: string[];
  first: string | null;
  round: number;
  guesses: Record<string, number>;
  scores: Record<string, number>;
  out: string[];
  winner: string | null;
  /** Ended by the match (resignation, agreed draw, time-out). */
  ended: { winners: string[]; reason: string } | null;
}

export type GuessCommand = { type: 'guess'; number: number };
export type GuessEvent =
  | { type: 'GameStarted'; first: string; roll: number }
  | { type: 'GuessCommitted'; seat: string; round: number; number: number | null }
  | { type: 'DieRolled'; round: number; roll: number; scores: Record<string, number> }
  | { type: 'PlayerOut'; seat: string }
  | { type: 'GameEnded'; winners: string[]; reason: string };

function activeSeats(s: GuessState): string[] {
  return s.players.filter((p) => !s.out.includes(p));
}

export const guessingGame: GameModule<GuessState, GuessCommand, GuessEvent, GuessOptions> = {
  id: 'guessing-game',
  name: 'Guessing Game',
  seats: ['north', 'east', 'south'],
  minPlayers: 2,
  maxPlayers: 3,
  optionsSchema: {
    type: 'object',
    properties: { target: { type: 'integer', minimum: 1, maximum: 1_000_000_000, default: 10 } },
    additionalProperties: false,
  },
  commandSchema: {
    oneOf: [
      {
        type: 'object',
        properties: { type: { const: 'guess' }, number: { type: 'integer', minimum: 1, maximum: 6 } },
        required: ['type', 'number'],
        additionalProperties: false,
      },
    ],
  },

  initialState({ options, players }: SetupInput<GuessOptions>) {
    return { target: options.target, players, first: null, round: 1, guesses: {}, scores: Object.fromEntries(players.map((p) => [p, 0])), out: [], winner: null, ended: null };
  },

  setup({ players }, random: Random) {
    const roll = random.die(players.length);
    return [{ type: 'GameStarted', first: players[roll - 1]!, roll }];
  },

  decide(state, command, seat, random) {
    if (state.guesses[seat] !== undefined) return refuse('You have already guessed this round', 'NOT_YOUR_TURN');
    const committed: GuessEvent = { type: 'GuessCommitted', seat, round: state.round, number: command.number };
    const guesses = { ...state.guesses, [seat]: command.number };
    if (!activeSeats(state).every((p) => guesses[p] !== undefined)) return accept(committed);
    const roll = random.die(6);
    const scores = { ...state.scores };
    for (const p of activeSeats(state)) if (guesses[p]! <= roll) scores[p]! += guesses[p]!;
    return accept<GuessEvent>(committed, { type: 'DieRolled', round: state.round, roll, scores });
  },

  evolve(state, event) {
    switch (event.type) {
      case 'GameStarted':
        return { ...state, first: event.first };
      case 'GuessCommitted':
        return { ...state, guesses: { ...state.guesses, [event.seat]: event.number ?? 0 } };
      case 'DieRolled': {
        const winner = activeSeats(state).find((p) => event.scores[p]! >= state.target) ?? null;
        return { ...state, round: state.round + 1, guesses: {}, scores: event.scores, winner };
      }
      case 'PlayerOut': {
        const { [event.seat]: _dropped, ...guesses } = state.guesses;
        return { ...state, out: [...state.out, event.seat], guesses };
      }
      case 'GameEnded':
        return { ...state, guesses: {}, ended: { winners: event.winners, reason: event.reason } };
    }
  },

  view(state, viewer) {
    const guesses = Object.fromEntries(Object.entries(state.guesses).map(([p, g]) => [p, p === viewer ? g : null]));
    return { round: state.round, scores: state.scores, first: state.first, guessed: Object.keys(state.guesses), guesses, target: state.target };
  },

  redact(event, viewer, current) {
    // A guess stays secret until the die of its round has been rolled.
    if (event.type === 'GuessCommitted' && event.seat !== viewer && event.round >= current.round) return { ...event, number: null };
    return event;
  },

  legalCommands(state, seat) {
    if (state.winner || state.ended || state.guesses[seat] !== undefined) return [];
    return [1, 2, 3, 4, 5, 6].map((n) => ({ type: 'guess', number: n }));
  },

  status(state): Status {
    if (state.ended) return { stage: 'FINISHED', phase: 'over', round: state.round, awaiting: [], result: state.ended };
    if (state.winner) return { stage: 'FINISHED', phase: 'over', round: state.round, awaiting: [], result: { winners: [state.winner], reason: `${state.winner} reached ${state.target}` } };
    const awaiting = activeSeats(state)
      .filter((p) => state.guesses[p] === undefined)
      .map((seat) => ({ seat, kind: 'COMMIT_NUMBER', prompt: 'Guess a number from 1 to 6' }));
    return { stage: 'ACTIVE', phase: 'guessing', round: state.round, awaiting, result: null };
  },

  eliminate(_state, seat) {
    return [{ type: 'PlayerOut', seat }];
  },
};
