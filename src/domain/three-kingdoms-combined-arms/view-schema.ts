/**
 * The JSON Schema of Three Kingdoms Combined Arms's view (view.ts), as GameModule.viewSchema. The service generates
 * the GraphQL type of the view from it; a test holds every view of random games to it.
 */
import { described, json, viewObject } from '../kernel/view-schema.ts';
import { CORNER_BY_SEAT_ORDER, FACTIONS, SEATS, UNIT_KINDS } from './data.ts';

const { string, integer, boolean, array, nullable, oneOf } = json;
const seat = oneOf(...SEATS);
const kind = oneOf(...UNIT_KINDS);

const reserve = viewObject('Reserve', {
  kind,
  name: string,
  count: integer,
});

const player = viewObject('Player', {
  seat,
  faction: described('Wei, Shu, Wu or Jin.', oneOf(...Object.values(FACTIONS))),
  corner: described('SW, NE, SE or NW: the player\'s 5x5 corner.', oneOf(...CORNER_BY_SEAT_ORDER)),
  out: boolean,
  citiesControlled: integer,
  reserve: described('Units still to place during setup.', array(reserve)),
});

const terrain = viewObject('Terrain', {
  square: string,
  kind: described('city, forest or mountain.', oneOf('city', 'forest', 'mountain')),
  controller: described('For a city, the seat that last occupied it.', nullable(seat)),
});

const unit = viewObject('Unit', {
  id: string,
  name: described('Never null here (nullable because other games hide it).', nullable(string)),
  seat,
  kind: described('general, armoredCavalry, infantry, archers, rockets, shockTroops or horseArchers.', kind),
  square: string,
  move: integer,
  range: integer,
  defense: described('Defense now, with the General and city bonuses.', integer),
  damage: described('Damage taken in this attack phase.', integer),
  moved: boolean,
  attacked: boolean,
  retreated: described('Forced to retreat once this attack phase (a second time destroys it).', boolean),
});

const destroyedUnit = viewObject('DestroyedUnit', {
  id: string,
  name: string,
  seat,
  kind,
});

const retreat = viewObject('Retreat', {
  unit: string,
  seat,
  options: array(string),
});

const result = viewObject('Result', {
  winners: array(string),
  reason: string,
});

const view = viewObject('View', {
  size: described('Board width and height in squares (12).', integer),
  stage: described('SETUP, ACTIVE or FINISHED.', oneOf('SETUP', 'ACTIVE', 'FINISHED')),
  round: described('Round number (each player has one turn per round); null during setup.', nullable(integer)),
  activeSeat: described('Whose turn it is (null during setup).', nullable(seat)),
  phase: described('SETUP, MOVE, ATTACK or OVER.', oneOf('SETUP', 'MOVE', 'ATTACK', 'OVER')),
  placer: described('Who places the next unit during setup.', nullable(seat)),
  turnLimit: described('Rounds after which the game ends as a draw, if any.', nullable(integer)),
  players: array(player),
  terrain: described('Squares with terrain (every other square is open ground).', array(terrain)),
  units: described('Units on the board.', array(unit)),
  destroyed: array(destroyedUnit),
  pendingRetreat: described('A retreat the unit\'s owner must choose now.', nullable(retreat)),
  result: nullable(result),
}, 'Three Kingdoms Combined Arms: a 12x12 board, squares named A1 (south-west) to L12 (north-east).');

export const viewSchema = view;
