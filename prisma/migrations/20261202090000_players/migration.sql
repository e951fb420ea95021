-- Players, the lobby and bots (issue 13).

-- A person playing under one name across games. The email is shown to nobody but the
-- player; the code sent to it is kept until it is verified, expires or is guessed wrong
-- too often.
CREATE TABLE "players" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT,
    "email_verified" BOOLEAN NOT NULL DEFAULT false,
    "notify_by_email" BOOLEAN NOT NULL DEFAULT false,
    "email_code" TEXT,
    "email_code_expires" TIMESTAMPTZ(3),
    "email_code_attempts" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "players_pkey" PRIMARY KEY ("id")
);

-- A player's bearer tokens, stored only as sha256 hashes. Revoking deletes the row, and
-- every request looks its token up, so every server process refuses it at once.
CREATE TABLE "player_tokens" (
    "id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "player_tokens_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "player_tokens_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "player_tokens_token_hash_key" ON "player_tokens"("token_hash");
CREATE INDEX "player_tokens_player_id_idx" ON "player_tokens"("player_id");

-- Who holds each seat lives on the game's row, so that taking a seat is one conditional
-- UPDATE of that row (two joiners racing for the last seat: the database picks one).
-- "seats" lists every seat not held by a seat token from creation; games created before
-- have none there.
ALTER TABLE "games" ADD COLUMN "seats" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "games" ADD COLUMN "player_ids" UUID[] NOT NULL DEFAULT ARRAY[]::UUID[];
ALTER TABLE "games" ADD COLUMN "bots" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "games" ADD COLUMN "visibility" TEXT NOT NULL DEFAULT 'PRIVATE';
ALTER TABLE "games" ADD COLUMN "invite_code_hash" TEXT;
ALTER TABLE "games" ADD COLUMN "created_by" UUID;
ALTER TABLE "games" ADD CONSTRAINT "games_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "players"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE UNIQUE INDEX "games_invite_code_hash_key" ON "games"("invite_code_hash");

-- "My games": the games a player holds a seat in.
CREATE INDEX "games_player_ids" ON "games" USING GIN ("player_ids");
-- openGames: public games with an open seat, oldest first.
CREATE INDEX "games_open" ON "games" ("created_at", "id") WHERE "status" = 'OPEN' AND "visibility" = 'PUBLIC';
-- The bots' sweep: running games with a seat the service plays.
CREATE INDEX "games_with_bots" ON "games" ("id") WHERE cardinality("bots") > 0 AND "status" IN ('SETUP', 'ACTIVE');
