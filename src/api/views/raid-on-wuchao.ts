/** The GraphQL object type of Raid on Wuchao's view (src/domain/raid-on-wuchao/view.ts). */
export const viewType = {
  gameType: 'raid-on-wuchao',
  typeName: 'RaidOnWuchaoView',
  sdl: `
"""Raid on Wuchao as a seat sees it (the whole board: the game has no hidden information)."""
type RaidOnWuchaoView {
  "Round 1-8 (null during setup)."
  round: Int
  rounds: Int!
  "Cao movement, Cao combat, Yuan movement, Yuan combat, Setup, Game over."
  phase: String!
  stage: String!
  spaces: [RaidOnWuchaoSpace!]!
  "Connections between spaces; each works both ways."
  connections: [[String!]!]!
  units: [RaidOnWuchaoUnit!]!
  "Unused Xu You tokens held by the Cao player."
  xuYouTokens: Int!
  "The Raid on Wuchao succeeded: the granaries have lost their +2 for the rest of the game."
  granariesRaided: Boolean!
  "Combats still to resolve this combat phase, in order."
  pendingCombats: [String!]!
  combat: RaidOnWuchaoCombat
  result: RaidOnWuchaoResult
}

type RaidOnWuchaoSpace {
  id: String!
  "cao, yuan, or null if nobody has held it yet."
  control: String
  "Defense bonus now (0 for a raided granary)."
  defenseBonus: Int!
  printedDefenseBonus: Int!
  granary: Boolean!
  camp: Boolean!
  victory: Boolean!
  neighbours: [String!]!
  "Ids of the units in the space."
  units: [String!]!
}

type RaidOnWuchaoUnit {
  id: String!
  "Never null here (nullable because other games hide it)."
  name: String
  side: String!
  "null before setup placement and once destroyed."
  space: String
  "full, reduced or destroyed."
  state: String!
  "Current Attack Power; null when it is rolled (1D6, Cao Cao)."
  attack: Int
  attackIsDie: Boolean!
  defense: Int!
  move: Int!
  movementLeft: Int!
  "Spaces moved through this movement phase, starting where the unit began."
  path: [String!]!
  "Cao Cao: destroying him wins the game for Yuan."
  special: Boolean!
}

type RaidOnWuchaoCombat {
  space: String!
  attackerSide: String!
  attackers: [String!]!
  defenders: [String!]!
  "Best single defense plus terrain."
  defense: Int!
  terrainBonus: Int!
  dice: [RaidOnWuchaoDie!]!
  "The die the Cao player may reroll with a Xu You token now."
  rerolling: String
  attackTotal: Int
  damage: Int
}

type RaidOnWuchaoDie {
  "combat, or the id of a unit rolling its own attack (Cao Cao)."
  die: String!
  label: String!
  roll: Int
}

type RaidOnWuchaoResult {
  winners: [String!]!
  reason: String!
}
`,
};
