/**
 * The GraphQL part of absence (docs/api.md, "Absence"): setAbsence, cancelAbsence,
 * `me { absences }` and `Seat.absentUntil`. Merged into the schema by src/api/graphql.ts;
 * it only translates: every resolver calls the core (src/app/absence.ts).
 */
import type { Actor } from '../app/actors.ts';
import type { Core } from '../app/core.ts';
import type { PlayerOut } from '../app/players.ts';

export const absenceSchema = /* GraphQL */ `
  "a time you are away: the clocks of your seats stand still from from until until (ISO timestamps)"
  type Absence { id: ID! from: String! until: String! }
  "ISO timestamps with their offset; from a few minutes ago means now"
  input AbsenceInput { from: String! until: String! }
  extend type Player { "this calendar year's and every later one, oldest first" absences: [Absence!]! }
  extend type Seat { "while the seat's player is absent: when they are back (ISO timestamp); their clock stands still until then" absentUntil: String }
  extend type Mutation {
    "refused BAD_REQUEST with the reason: an overlap, a start in the past, over ABSENCE_DAYS_PER_YEAR days in a calendar year"
    setAbsence(input: AbsenceInput!): Absence!
    "one not begun is gone; one under way ends now"
    cancelAbsence(id: ID!): Boolean!
  }
`;

interface Context {
  actor: () => Promise<Actor>;
}

export function absenceResolvers(app: Core) {
  return {
    Player: {
      absences: (p: PlayerOut) => app.absences.list({ kind: 'player', playerId: p.id }),
    },
    Mutation: {
      setAbsence: async (_: unknown, args: { input: { from: string; until: string } }, ctx: Context) => app.absences.set(await ctx.actor(), args.input),
      cancelAbsence: async (_: unknown, args: { id: string }, ctx: Context) => app.absences.cancel(await ctx.actor(), args.id),
    },
  };
}
