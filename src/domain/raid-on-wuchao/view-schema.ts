/**
 * The JSON Schema of Raid on Wuchao's view (view.ts), as GameModule.viewSchema. The service generates
 * the GraphQL type of the view from it; a test holds every view of random games to it.
 */
import { described, json, viewObject } from '../kernel/view-schema.ts';
import { SIDES } from './data.ts';

const { string, integer, boolean, array, nullable, oneOf } = json;
const side = oneOf(...SIDES);

const space = viewObject('Space', {
  id: string,
  control: described('cao, yuan, or null if nobody has held it yet.', nullable(side)),
  defenseBonus: described('Defense bonus now (0 for a raided granary).', integer),
  printedDefenseBonus: integer,
  granary: boolean,
  camp: boolean,
  victory: boolean,
  neighbours: array(string),
  units: described('Ids of the units in the space.', array(string)),
});

const unit = viewObject('Unit', {
  id: string,
  name: described('Never null here (nullable because other games hide it).', nullable(string)),
  side,
  space: described('null before setup placement and once destroyed.', nullable(string)),
  state: described('full, reduced or destroyed.', oneOf('full', 'reduced', 'destroyed')),
  attack: described('Current Attack Power; null when it is rolled (1D6, Cao Cao).', nullable(integer)),
  attackIsDie: boolean,
  defense: integer,
  move: integer,
  movementLeft: integer,
  path: described('Spaces moved through this movement phase, starting where the unit began.', array(string)),
  special: described('Cao Cao: destroying him wins the game for Yuan.', boolean),
});

const die = viewObject('Die', {
  die: described('combat, or the id of a unit rolling its own attack (Cao Cao).', string),
  label: string,
  roll: nullable(integer),
});

const combat = viewObject('Combat', {
  space: string,
  attackerSide: side,
  attackers: array(string),
  defenders: array(string),
  defense: described('Best single defense plus terrain.', integer),
  terrainBonus: integer,
  dice: array(die),
  rerolling: described('The die the Cao player may reroll with a Xu You token now.', nullable(string)),
  attackTotal: nullable(integer),
  damage: nullable(integer),
});

const result = viewObject('Result', {
  winners: array(string),
  reason: string,
});

const view = viewObject('View', {
  round: described('Round 1-8 (null during setup).', nullable(integer)),
  rounds: integer,
  phase: described('Cao movement, Cao combat, Yuan movement, Yuan combat, Setup, Game over.', string),
  stage: oneOf('SETUP', 'ACTIVE', 'FINISHED'),
  spaces: array(space),
  connections: described('Connections between spaces; each works both ways.', array(array(string))),
  units: array(unit),
  xuYouTokens: described('Unused Xu You tokens held by the Cao player.', integer),
  granariesRaided: described('The Raid on Wuchao succeeded: the granaries have lost their +2 for the rest of the game.', boolean),
  pendingCombats: described('Combats still to resolve this combat phase, in order.', array(string)),
  combat: nullable(combat),
  result: nullable(result),
}, 'Raid on Wuchao as a seat sees it (the whole board: the game has no hidden information).');

export const viewSchema = view;
