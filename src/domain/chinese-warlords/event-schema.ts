/** The JSON Schema of Chinese Warlords' events (events.ts), as GameType.eventSchema publishes them. */
import { eventSchema as schemaOf, json, type EventProperties } from '../kernel/event-schema.ts';
import { CRT_COLUMNS, TERRAIN_IDS, UNIT_TYPE_IDS } from './data.ts';
import type { WarlordsEvent } from './events.ts';

const { string, integer, boolean, array, nullable, object, record, oneOf } = json;
const unitType = oneOf(...UNIT_TYPE_IDS);
const strings = array(string);
const hex = object({ id: string, col: integer, row: integer, terrain: oneOf(...TERRAIN_IDS) });

const events: EventProperties<WarlordsEvent> = {
  GameSetUp: {
    map: object({ name: string, hexes: array(hex), strongholds: strings }),
    turnLimit: nullable(integer),
    players: array(
      object({ seat: string, stronghold: string, abilityRoll: integer, extraIncomeRolls: nullable(array(integer)), treasury: integer, village: nullable(string) }),
    ),
    units: array(object({ id: string, type: unitType, owner: string, hex: string })),
  },
  TurnBegan: { turn: integer, initiativeRolls: array(record(integer)), order: strings },
  IncomeCollected: { incomes: array(object({ seat: string, villages: integer, strongholds: integer, bonus: integer, total: integer, treasury: integer })) },
  UpkeepSettled: { upkeep: array(object({ seat: string, unitCost: integer, due: integer, paid: boolean, lossRoll: nullable(integer), treasury: integer })) },
  PhaseBegan: { phase: oneOf('setup', 'upkeep', 'recruitment', 'movement', 'combat', 'turnEnd'), seat: nullable(string) },
  UnitLost: { unit: string, unitType, seat: string, hex: string, cause: oneOf('upkeep', 'combat', 'carrier') },
  AvailabilityRolled: { seat: string, unitType, roll: integer, bonus: integer, total: integer, available: boolean },
  UnitRecruited: { seat: string, unitType, units: strings, hex: string, cost: integer, treasury: integer },
  RecruitmentEnded: { seat: string },
  UnitMoved: { seat: string, unit: string, path: strings, cost: integer, passengers: strings },
  UnitBoarded: { seat: string, unit: string, carrier: string, hex: string },
  UnitUnloaded: { seat: string, unit: string, carrier: string, hex: string },
  ControlTaken: { seat: string, hex: string, from: nullable(string) },
  StrongholdCaptured: { seat: string, hex: string, owner: string, unit: string },
  MovementEnded: { seat: string },
  AttackDeclared: { seat: string, stack: string, target: string, defender: string, units: strings },
  CombatResolved: {
    attacker: string,
    defender: string,
    target: string,
    stacks: strings,
    attackers: strings,
    defenders: strings,
    attackForce: integer,
    defenderForce: integer,
    terrainDefense: integer,
    column: oneOf(...CRT_COLUMNS),
    roll: integer,
    result: oneOf('A', 'K2', 'K', 'R', '-'),
  },
  StackRetreated: { seat: string, from: string, to: string, units: strings },
  CombatEnded: { seat: string },
  PlayerDefeated: { seat: string, reason: string },
  GameEnded: { winners: strings, reason: string },
  NearbyVillageTaken: { seat: string, hex: nullable(string) },
  TurnLimitReached: { turn: integer },
};

export const eventSchema = schemaOf<WarlordsEvent>('Chinese Warlords event', events);
