/** The GraphQL object type of Warchon's view (src/domain/warchon/view.ts). */
export const viewType = {
  gameType: 'warchon',
  typeName: 'WarchonView',
  sdl: `
"""Warchon as a seat (or a spectator) sees it: units that have not fought show only their marker to the other side."""
type WarchonView {
  "Turn number, counting each player's turn (0 during setup)."
  turn: Int!
  "Setup (Azuthkan), Azuthkan Movement Round, Battle at Erdon Pass, Strategy Round at ..., Random Event at ..., Game over."
  phase: String!
  "The army whose turn it is: the Attacker (null during setup)."
  activeArmy: String
  "players: both players secretly choose every number; server: the server draws them."
  numbers: String!
  turnLimit: Int
  "The seat this view is for (null: a spectator)."
  viewer: String
  spreads: [WarchonSpread!]!
  units: [WarchonUnit!]!
  unplaced: [WarchonUnplaced!]!
  battle: WarchonBattle
  result: WarchonResult
}

type WarchonSpread {
  number: Int!
  name: String!
  terrain: [String!]!
  capacity: Int!
  specialRules: String!
  paths: [Int!]!
  "Spreads one Movement away: the next ones in order plus paths."
  neighbours: [Int!]!
  "An Engaged result locks the units here until the next turn is over."
  engaged: Boolean!
  randomEventThisTurn: Boolean!
  "rng[defender's number - 1][attacker's number - 1], e.g. 5E."
  rng: [[String!]!]!
  "Combat Results Table rows 1-3, columns -5, -4, -3/-2, -1/0/+1, +2/+3, +4, +5."
  crt: [[String!]!]!
  events: [WarchonEventEntry!]
}

type WarchonEventEntry {
  name: String!
  text: String!
}

"""A playmark. For the other side's units that have not fought, known is false and every identity field is null."""
type WarchonUnit {
  "Public marker, e.g. azuthkan-3."
  id: String!
  army: String!
  spread: Int
  destroyed: Boolean!
  revealed: Boolean!
  shifted: Boolean!
  known: Boolean!
  key: String
  type: String
  name: String
  size: Int
  movement: Int
  as: Int
  ds: Int
  "Hits left."
  hits: Int
  maxHits: Int
  traits: [String!]
  movesLeft: Int
  "A Surprise Reserve that must retreat when the turn is over."
  reserve: Boolean!
  "The Ramping Water Elemental: with the battle for this turn only."
  temporary: Boolean!
  "Bribery / Shell Game: fights for this army this turn."
  fightsFor: String
}

type WarchonUnplaced {
  army: String!
  count: Int!
  "Roster copies still to place: only for their owner."
  units: [String!]
}

type WarchonBattle {
  spread: Int!
  attacker: String!
  defender: String!
  step: String!
  numberCall: WarchonNumberCall
  lastNumber: WarchonNumber
  originalNumber: Int
  randomEvent: String
  modifiers: [WarchonModifier!]!
  halved: Boolean!
  berserkers: [String!]!
  withheld: [String!]!
  bridge: [String!]!
  engaged: Boolean!
}

type WarchonNumberCall {
  "combat, event or effect."
  purpose: String!
  "Armies whose secret number is in."
  committed: [String!]!
  "Your own secret number, if you have chosen it."
  yourNumber: Int
}

type WarchonNumber {
  purpose: String!
  value: Int!
  event: Boolean!
}

type WarchonModifier {
  units: [String!]!
  op: String!
  value: Float!
  stat: String!
  reason: String!
}

type WarchonResult {
  winners: [String!]!
  reason: String!
}
`,
};
