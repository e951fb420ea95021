-- Messages between players (docs/api.md, "Messages between players"). A message is no
-- event: it never changes the game's version. to_seats NULL: public (everyone in the game);
-- otherwise the seats it is addressed to, and only they and the sender's seat may read it.
CREATE TABLE "messages" (
  "id" UUID NOT NULL,
  "seq" BIGSERIAL NOT NULL,
  "game_id" UUID NOT NULL,
  "from_seat" TEXT NOT NULL,
  "to_seats" TEXT[],
  "text" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  -- game_id first in every key: messages are per game (docs/scaling.md, sharding by game).
  CONSTRAINT "messages_pkey" PRIMARY KEY ("game_id", "id"),
  CONSTRAINT "messages_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- A game's messages in the order they were stored (the listing's and the feed's cursor).
CREATE UNIQUE INDEX "messages_game_id_seq_key" ON "messages"("game_id", "seq");

-- The rate limit: messages sent per sender (a player, or a seat token's seat) in the minute
-- from window_start, counted by the statement that stores the message, for every process.
CREATE TABLE "message_limits" (
  "sender" TEXT NOT NULL,
  "window_start" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "count" INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT "message_limits_pkey" PRIMARY KEY ("sender")
);
