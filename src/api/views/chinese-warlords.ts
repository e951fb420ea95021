/**
 * GraphQL type of the Chinese Warlords view (src/domain/chinese-warlords/view.ts returns
 * exactly these keys). Hex ids are "col,row" in odd-r offset coordinates: pointy-top hexes,
 * odd rows shifted half a hex east.
 */
export const viewType = {
  gameType: 'chinese-warlords',
  typeName: 'ChineseWarlordsView',
  sdl: `
"A hex of the map. id is \\"col,row\\" (odd-r offset coordinates: odd rows sit half a hex east)."
type ChineseWarlordsHex {
  id: String!
  col: Int!
  row: Int!
  "village, stronghold, open, road, paddies, jungle or water"
  terrain: String!
  "The seat controlling this village or stronghold, if any"
  controller: String
}

type ChineseWarlordsMap {
  name: String!
  "How hex ids are read"
  coordinates: String!
  hexes: [ChineseWarlordsHex!]!
  "Stronghold hex ids, one per seat in seat order"
  strongholds: [String!]!
}

type ChineseWarlordsPlayer {
  seat: String!
  treasury: Int!
  "The warlord special ability's 1D10 roll (10 stands for the die's 0)"
  abilityRoll: Int!
  ability: String!
  abilityText: String!
  stronghold: String!
  out: Boolean!
  "Unit types whose availability roll failed this turn"
  unavailable: [String!]!
  "Upkeep unpaid: units still to choose to lose"
  upkeepLossesToChoose: Int!
}

type ChineseWarlordsUnit {
  id: String!
  "peasants, thugs, bodyguards, lieutenant, warlord, vehicles, machineGun, artillery, armoredVehicle, boats (never null here: nullable because other games hide it)"
  type: String
  "Never null here (nullable because other games hide it)."
  name: String
  owner: String!
  hex: String!
  "The vehicle or boat carrying this unit"
  carriedBy: String
  force: Int!
  range: Int!
  movementLeft: Int!
  "Its stack has made its attack this turn (units out of range of that target included)"
  attacked: Boolean!
  "Its stack has retreated this turn"
  retreated: Boolean!
  "Its stack was attacked last turn (so it may attack this turn without a Warlord or Lieutenant)"
  attackedRecently: Boolean!
}

"An attack being formed: stacks join it, then it is resolved"
type ChineseWarlordsAttack {
  attacker: String!
  defender: String!
  target: String!
  stacks: [String!]!
  units: [String!]!
}

"The defender's pending choices after a K2, K or R result"
type ChineseWarlordsDefense {
  attacker: String!
  defender: String!
  hex: String!
  result: String!
  lossesToChoose: Int!
  "retreatOrLose, retreat, or null"
  afterLosses: String
}

type ChineseWarlordsResult {
  winners: [String!]!
  reason: String!
}

type ChineseWarlordsView {
  turn: Int!
  "upkeep, recruitment, movement, combat, turnEnd"
  phase: String!
  "Whose recruitment, movement or combat it is"
  activeSeat: String
  initiativeOrder: [String!]!
  turnLimit: Int
  map: ChineseWarlordsMap!
  players: [ChineseWarlordsPlayer!]!
  units: [ChineseWarlordsUnit!]!
  attack: ChineseWarlordsAttack
  defense: ChineseWarlordsDefense
  result: ChineseWarlordsResult
}
`,
};
