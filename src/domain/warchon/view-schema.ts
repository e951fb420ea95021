/**
 * The JSON Schema of Warchon's view (view.ts), as GameModule.viewSchema. The service generates
 * the GraphQL type of the view from it; a test holds every view of random games to it.
 */
import { described, json, viewObject } from '../kernel/view-schema.ts';
import { ARMIES } from './types.ts';

const { string, integer, number, boolean, array, nullable, oneOf } = json;
const army = oneOf(...ARMIES);

const eventEntry = viewObject('EventEntry', {
  name: string,
  text: string,
});

const spread = viewObject('Spread', {
  number: integer,
  name: string,
  terrain: array(string),
  capacity: integer,
  specialRules: string,
  paths: array(integer),
  neighbours: described('Spreads one Movement away: the next ones in order plus paths.', array(integer)),
  engaged: described('An Engaged result locks the units here until the next turn is over.', boolean),
  randomEventThisTurn: boolean,
  rng: described('rng[defender\'s number - 1][attacker\'s number - 1], e.g. 5E.', array(array(string))),
  crt: described('Combat Results Table rows 1-3, columns -5, -4, -3/-2, -1/0/+1, +2/+3, +4, +5.', array(array(string))),
  events: nullable(array(eventEntry)),
});

const unit = viewObject('Unit', {
  id: described('Public marker, e.g. azuthkan-3.', string),
  army,
  spread: nullable(integer),
  destroyed: boolean,
  revealed: boolean,
  shifted: boolean,
  known: boolean,
  key: nullable(string),
  type: nullable(string),
  name: nullable(string),
  size: nullable(integer),
  movement: nullable(integer),
  as: nullable(integer),
  ds: nullable(integer),
  hits: described('Hits left.', nullable(integer)),
  maxHits: nullable(integer),
  traits: nullable(array(string)),
  movesLeft: nullable(integer),
  reserve: described('A Surprise Reserve that must retreat when the turn is over.', boolean),
  temporary: described('The Ramping Water Elemental: with the battle for this turn only.', boolean),
  fightsFor: described('Bribery / Shell Game: fights for this army this turn.', nullable(army)),
}, 'A playmark. For the other side\'s units that have not fought, known is false and every identity field is null.');

const unplaced = viewObject('Unplaced', {
  army,
  count: integer,
  units: described('Roster copies still to place: only for their owner.', nullable(array(string))),
});

const numberCall = viewObject('NumberCall', {
  purpose: described('combat, event or effect.', oneOf('combat', 'event', 'effect')),
  committed: described('Armies whose secret number is in.', array(string)),
  yourNumber: described('Your own secret number, if you have chosen it.', nullable(integer)),
});

const drawnNumber = viewObject('Number', {
  purpose: string,
  value: integer,
  event: boolean,
});

const modifier = viewObject('Modifier', {
  units: array(string),
  op: string,
  value: number,
  stat: string,
  reason: string,
});

const battle = viewObject('Battle', {
  spread: integer,
  attacker: army,
  defender: army,
  step: string,
  numberCall: nullable(numberCall),
  lastNumber: nullable(drawnNumber),
  originalNumber: nullable(integer),
  randomEvent: nullable(string),
  modifiers: array(modifier),
  halved: boolean,
  berserkers: array(string),
  withheld: array(string),
  bridge: array(string),
  engaged: boolean,
});

const result = viewObject('Result', {
  winners: array(string),
  reason: string,
});

const view = viewObject('View', {
  turn: described('Turn number, counting each player\'s turn (0 during setup).', integer),
  phase: described('Setup (Azuthkan), Azuthkan Movement Round, Battle at Erdon Pass, Strategy Round at ..., Random Event at ..., Game over.', string),
  activeArmy: described('The army whose turn it is: the Attacker (null during setup).', nullable(army)),
  numbers: described('players: both players secretly choose every number; server: the server draws them.', oneOf('players', 'server')),
  turnLimit: nullable(integer),
  viewer: described('The seat this view is for (null: a spectator).', nullable(army)),
  spreads: array(spread),
  units: array(unit),
  unplaced: array(unplaced),
  battle: nullable(battle),
  result: nullable(result),
}, 'Warchon as a seat (or a spectator) sees it: units that have not fought show only their marker to the other side.');

export const viewSchema = view;
