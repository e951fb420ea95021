/**
 * GraphQL type of the Three Kingdoms Combined Arms view: the fields are the keys of the
 * object src/domain/three-kingdoms-combined-arms/view.ts returns. Just data: the API
 * integrates it into the GameView union.
 */
export const viewType = {
  gameType: 'three-kingdoms-combined-arms',
  typeName: 'ThreeKingdomsCombinedArmsView',
  sdl: `
"""Three Kingdoms Combined Arms: a 12x12 board, squares named A1 (south-west) to L12 (north-east)."""
type ThreeKingdomsCombinedArmsView {
  "Board width and height in squares (12)."
  size: Int!
  "SETUP, ACTIVE or FINISHED."
  stage: String!
  "Round number (each player has one turn per round); null during setup."
  round: Int
  "Whose turn it is (null during setup)."
  activeSeat: String
  "SETUP, MOVE, ATTACK or OVER."
  phase: String!
  "Who places the next unit during setup."
  placer: String
  "Rounds after which the game ends as a draw, if any."
  turnLimit: Int
  players: [ThreeKingdomsCombinedArmsPlayer!]!
  "Squares with terrain (every other square is open ground)."
  terrain: [ThreeKingdomsCombinedArmsTerrain!]!
  "Units on the board."
  units: [ThreeKingdomsCombinedArmsUnit!]!
  destroyed: [ThreeKingdomsCombinedArmsDestroyedUnit!]!
  "A retreat the unit's owner must choose now."
  pendingRetreat: ThreeKingdomsCombinedArmsRetreat
  result: ThreeKingdomsCombinedArmsResult
}

type ThreeKingdomsCombinedArmsPlayer {
  seat: String!
  "Wei, Shu, Wu or Jin."
  faction: String!
  "SW, NE, SE or NW: the player's 5x5 corner."
  corner: String!
  out: Boolean!
  citiesControlled: Int!
  "Units still to place during setup."
  reserve: [ThreeKingdomsCombinedArmsReserve!]!
}

type ThreeKingdomsCombinedArmsReserve {
  kind: String!
  name: String!
  count: Int!
}

type ThreeKingdomsCombinedArmsTerrain {
  square: String!
  "city, forest or mountain."
  kind: String!
  "For a city, the seat that last occupied it."
  controller: String
}

type ThreeKingdomsCombinedArmsUnit {
  id: String!
  "Never null here (nullable because other games hide it)."
  name: String
  seat: String!
  "general, armoredCavalry, infantry, archers, rockets, shockTroops or horseArchers."
  kind: String!
  square: String!
  move: Int!
  range: Int!
  "Defense now, with the General and city bonuses."
  defense: Int!
  "Damage taken in this attack phase."
  damage: Int!
  moved: Boolean!
  attacked: Boolean!
  "Forced to retreat once this attack phase (a second time destroys it)."
  retreated: Boolean!
}

type ThreeKingdomsCombinedArmsDestroyedUnit {
  id: String!
  name: String!
  seat: String!
  kind: String!
}

type ThreeKingdomsCombinedArmsRetreat {
  unit: String!
  seat: String!
  options: [String!]!
}

type ThreeKingdomsCombinedArmsResult {
  winners: [String!]!
  reason: String!
}
`,
};
