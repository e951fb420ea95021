/**
 * The tests' guessing game (guessing-game.ts) as a hosted game would be written: the same
 * rules, plus what the service serves about a game: its event schema, the JSON Schema of its
 * view (from which the GraphQL type GuessingGameView is generated), its presentation and its
 * example options. Hosting it takes this module and one line in the games list.
 */
import { eventSchema as schemaOf, json, type EventProperties } from '../../src/domain/kernel/event-schema.ts';
import type { GameModule, Presentation } from '../../src/domain/kernel/index.ts';
import { described, viewObject } from '../../src/domain/kernel/view-schema.ts';
import { guessingGame, type GuessCommand, type GuessEvent, type GuessOptions, type GuessState } from './guessing-game.ts';

const { string, integer, array, nullable, record } = json;

const events: EventProperties<GuessEvent> = {
  GameStarted: { first: string, roll: integer },
  // The number is null for the others until the round's die is rolled.
  GuessCommitted: { seat: string, round: integer, number: nullable(integer) },
  DieRolled: { round: integer, roll: integer, scores: record(integer) },
  PlayerOut: { seat: string },
  GameEnded: { winners: array(string), reason: string },
};

const viewSchema = viewObject(
  'View',
  {
    phase: described('guessing, or over.', string),
    round: integer,
    target: described('The score that wins.', integer),
    first: nullable(string),
    scores: described('Each seat\'s score (JSON: seat → points).', record(integer)),
    guessed: described('Seats that have guessed this round.', array(string)),
    guesses: described('This round\'s guesses: the viewer\'s own, null for the others (JSON: seat → number or null).', record(nullable(integer))),
  },
  'The guessing game: every round each player secretly guesses 1-6, then a die is rolled.',
);

const presentation: Presentation = {
  description: 'Every round all players secretly guess a number from 1 to 6; a die decides who scores. First to the target wins.',
  seats: {
    north: { name: 'North', colour: '#2b6cb0' },
    east: { name: 'East', colour: '#2f855a' },
    south: { name: 'South', colour: '#c53030' },
  },
};

export const hostedGuessingGame: GameModule<GuessState, GuessCommand, GuessEvent, GuessOptions> = {
  ...guessingGame,
  // The view says its phase, as every typed view does (the View interface).
  view: (state, viewer) => ({ phase: guessingGame.status(state).phase, ...(guessingGame.view(state, viewer) as object) }),
  eventSchema: schemaOf<GuessEvent>('Guessing Game event', events),
  viewSchema,
  presentation,
  exampleOptions: [{ target: 10 }, { target: 20 }],
};
