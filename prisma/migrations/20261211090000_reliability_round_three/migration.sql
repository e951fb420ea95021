-- Reliability and security, round three (issue 24).

-- §4: the email code is stored as sha256("<player id>:<code>"), never in plain text, and a
-- guess is compared and counted in one statement (PlayerStore.guessCode). Codes pending
-- now are hashed in place, so they keep working.
ALTER TABLE "players" RENAME COLUMN "email_code" TO "email_code_hash";
UPDATE "players"
   SET "email_code_hash" = encode(sha256(convert_to("id"::text || ':' || "email_code_hash", 'UTF8')), 'hex')
 WHERE "email_code_hash" IS NOT NULL;

-- §8: an unsubscribe link signs the player's id and this number; using the link turns mail
-- off and moves the number on, so a link works once and older links stop working.
ALTER TABLE "players" ADD COLUMN "unsubscribe_version" INTEGER NOT NULL DEFAULT 0;

-- §8: registrations counted per client address in the database, so every server process
-- shares one count: the number in the minute that started at window_start.
CREATE TABLE "registration_limits" (
    "address" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "registration_limits_pkey" PRIMARY KEY ("address")
);
CREATE INDEX "registration_limits_window_start" ON "registration_limits"("window_start");

-- §7: a list without a token shows PUBLIC games only, newest first: walked backwards here
-- rather than past every private game.
CREATE INDEX "games_visibility_created_at" ON "games"("visibility", "created_at", "id");
