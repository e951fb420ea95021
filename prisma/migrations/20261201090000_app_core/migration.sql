-- The application core (issue: one application core for every way a command arrives).

-- Every game records the fingerprint of the rules code it started under; an export
-- carries it and verify says so when the rules have changed since.
ALTER TABLE "games" ADD COLUMN "rules" TEXT NOT NULL DEFAULT '';

-- A command of the service itself (a deadline that passed) has no seat.
ALTER TABLE "commands" ALTER COLUMN "seat" DROP NOT NULL;

-- A global position, increasing across all games, for consumers that follow every game.
-- "tx" is the writing transaction: a consumer reads only positions whose transaction is
-- older than every transaction still running (pg_snapshot_xmin), so a position assigned
-- by a transaction that commits later is never skipped.
ALTER TABLE "game_events" ADD COLUMN "position" BIGINT GENERATED ALWAYS AS IDENTITY;
ALTER TABLE "game_events" ADD COLUMN "tx" XID8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX "game_events_position" ON "game_events" ("position");

-- What changed for whom, written in the same transaction as the events it is about.
CREATE TABLE "outbox" (
    "game_id" UUID NOT NULL,
    "id" BIGINT GENERATED ALWAYS AS IDENTITY,
    "version" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "seat" TEXT,
    "data" JSONB NOT NULL DEFAULT '{}',
    "tx" XID8 NOT NULL DEFAULT pg_current_xact_id(),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("game_id", "id"),
    CONSTRAINT "outbox_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "outbox_id" ON "outbox" ("id");
