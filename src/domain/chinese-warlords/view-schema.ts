/**
 * The JSON Schema of Chinese Warlords's view (view.ts), as GameModule.viewSchema. The service generates
 * the GraphQL type of the view from it; a test holds every view of random games to it.
 */
import { described, json, viewObject } from '../kernel/view-schema.ts';
import { SEATS, TERRAIN_IDS, UNIT_TYPE_IDS } from './data.ts';

const { string, integer, boolean, array, nullable, oneOf } = json;
const seat = oneOf(...SEATS);

const hex = viewObject('Hex', {
  id: string,
  col: integer,
  row: integer,
  terrain: described('village, stronghold, open, road, paddies, jungle or water', oneOf(...TERRAIN_IDS)),
  controller: described('The seat controlling this village or stronghold, if any', nullable(seat)),
}, 'A hex of the map. id is "col,row" (odd-r offset coordinates: odd rows sit half a hex east).');

const map = viewObject('Map', {
  name: string,
  coordinates: described('How hex ids are read', string),
  hexes: array(hex),
  strongholds: described('Stronghold hex ids, one per seat in seat order', array(string)),
});

const player = viewObject('Player', {
  seat,
  treasury: integer,
  abilityRoll: described('The warlord special ability\'s 1D10 roll (10 stands for the die\'s 0)', integer),
  ability: string,
  abilityText: string,
  stronghold: string,
  out: boolean,
  unavailable: described('Unit types whose availability roll failed this turn', array(oneOf(...UNIT_TYPE_IDS))),
  upkeepLossesToChoose: described('Upkeep unpaid: units still to choose to lose', integer),
});

const unit = viewObject('Unit', {
  id: string,
  type: described('peasants, thugs, bodyguards, lieutenant, warlord, vehicles, machineGun, artillery, armoredVehicle, boats (never null here: nullable because other games hide it)', nullable(oneOf(...UNIT_TYPE_IDS))),
  name: described('Never null here (nullable because other games hide it).', nullable(string)),
  owner: seat,
  hex: string,
  carriedBy: described('The vehicle or boat carrying this unit', nullable(string)),
  force: integer,
  range: integer,
  movementLeft: integer,
  attacked: described('Its stack has made its attack this turn (units out of range of that target included)', boolean),
  retreated: described('Its stack has retreated this turn', boolean),
  attackedRecently: described('Its stack was attacked last turn (so it may attack this turn without a Warlord or Lieutenant)', boolean),
});

const attack = viewObject('Attack', {
  attacker: seat,
  defender: seat,
  target: string,
  stacks: array(string),
  units: array(string),
}, 'An attack being formed: stacks join it, then it is resolved');

const defense = viewObject('Defense', {
  attacker: seat,
  defender: seat,
  hex: string,
  result: string,
  lossesToChoose: integer,
  afterLosses: described('retreatOrLose, retreat, or null', nullable(string)),
}, 'The defender\'s pending choices after a K2, K or R result');

const result = viewObject('Result', {
  winners: array(string),
  reason: string,
});

const view = viewObject('View', {
  turn: integer,
  phase: described('upkeep, recruitment, movement, combat, turnEnd', oneOf('upkeep', 'recruitment', 'movement', 'combat', 'turnEnd')),
  activeSeat: described('Whose recruitment, movement or combat it is', nullable(seat)),
  initiativeOrder: array(seat),
  turnLimit: nullable(integer),
  map: map,
  players: array(player),
  units: array(unit),
  attack: nullable(attack),
  defense: nullable(defense),
  result: nullable(result),
});

export const viewSchema = view;
