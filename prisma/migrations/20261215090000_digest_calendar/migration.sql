-- The daily digest and the calendar feed (docs/api.md, "Absence, digests, calendars").
-- A player who wants the digest gets one mail a day instead of a mail each time it becomes
-- their turn. token_generation moves on each time one of the player's tokens is revoked:
-- a calendar URL made at an older generation is worth nothing.
ALTER TABLE "players" ADD COLUMN "email_digest" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "players" ADD COLUMN "token_generation" INTEGER NOT NULL DEFAULT 0;

-- One row per player and day: the digest of that day was sent (its mail job added by the
-- same statement), so two processes planning the same day send it once.
CREATE TABLE "digest_mails" (
  "player_id" UUID NOT NULL,
  "day" DATE NOT NULL,
  "games" INTEGER NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT "digest_mails_pkey" PRIMARY KEY ("player_id", "day"),
  CONSTRAINT "digest_mails_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Calendar feed tokens: only the sha256 is stored, with the generation it was made at.
CREATE TABLE "calendar_tokens" (
  "token_hash" TEXT NOT NULL,
  "player_id" UUID NOT NULL,
  "generation" INTEGER NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT "calendar_tokens_pkey" PRIMARY KEY ("token_hash"),
  CONSTRAINT "calendar_tokens_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "calendar_tokens_player_id_idx" ON "calendar_tokens"("player_id");
