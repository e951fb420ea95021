/**
 * The JSON Schema of Three Kingdoms Combined Arms's view (view.ts), as GameModule.viewSchema. The service generates
 * the GraphQL type of the view from it; a test holds every view of random games to it.
 */
import { described, json, viewObject } from '../kernel/view-schema.ts';

const { string, integer, boolean, array, nullable } = json;

const reserve = viewObject('Reserve', {
  kind: string,
  name: string,
  count: integer,
});

const player = viewObject('Player', {
  seat: string,
  faction: described('Wei, Shu, Wu or Jin.', string),
  corner: described('SW, NE, SE or NW: the player\'s 5x5 corner.', string),
  out: boolean,
  citiesControlled: integer,
  reserve: described('Units still to place during setup.', array(reserve)),
});

const terrain = viewObject('Terrain', {
  square: string,
  kind: described('city, forest or mountain.', string),
  controller: described('For a city, the seat that last occupied it.', nullable(string)),
});

const unit = viewObject('Unit', {
  id: string,
  name: described('Never null here (nullable because other games hide it).', nullable(string)),
  seat: string,
  kind: described('general, armoredCavalry, infantry, archers, rockets, shockTroops or horseArchers.', string),
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
  seat: string,
  kind: string,
});

const retreat = viewObject('Retreat', {
  unit: string,
  seat: string,
  options: array(string),
});

const result = viewObject('Result', {
  winners: array(string),
  reason: string,
});

const view = viewObject('View', {
  size: described('Board width and height in squares (12).', integer),
  stage: described('SETUP, ACTIVE or FINISHED.', string),
  round: described('Round number (each player has one turn per round); null during setup.', nullable(integer)),
  activeSeat: described('Whose turn it is (null during setup).', nullable(string)),
  phase: described('SETUP, MOVE, ATTACK or OVER.', string),
  placer: described('Who places the next unit during setup.', nullable(string)),
  turnLimit: described('Rounds after which the game ends as a draw, if any.', nullable(integer)),
  players: array(player),
  terrain: described('Squares with terrain (every other square is open ground).', array(terrain)),
  units: described('Units on the board.', array(unit)),
  destroyed: array(destroyedUnit),
  pendingRetreat: described('A retreat the unit\'s owner must choose now.', nullable(retreat)),
  result: nullable(result),
}, 'Three Kingdoms Combined Arms: a 12x12 board, squares named A1 (south-west) to L12 (north-east).');

export const viewSchema = view;
