-- Play by mail (docs/api.md, "Play by mail"). Every inbound message is stored as received
-- before the SMTP transaction (or the HTTP request) is acknowledged, with the job that
-- handles it in the same statement: a crash between receipt and handling loses nothing.
-- A Message-ID is stored once, so a replayed message is neither applied nor answered again.
CREATE TABLE "inbound_mails" (
  "id" UUID NOT NULL,
  "message_id" TEXT,
  "raw" BYTEA NOT NULL,
  "envelope" JSONB NOT NULL DEFAULT '{}',
  "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "handled_at" TIMESTAMPTZ(3),
  "player_id" UUID,
  "outcome" TEXT,
  CONSTRAINT "inbound_mails_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "inbound_mails_message_id_key" ON "inbound_mails"("message_id");
-- The rate limit counts a player's recent mails.
CREATE INDEX "inbound_mails_player_id_received_at_idx" ON "inbound_mails"("player_id", "received_at");

-- Reply addresses: one per player, game and seat; only the token's sha256 is stored.
CREATE TABLE "mail_reply_addresses" (
  "token_hash" TEXT NOT NULL,
  "player_id" UUID NOT NULL,
  "game_id" UUID NOT NULL,
  "seat" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT "mail_reply_addresses_pkey" PRIMARY KEY ("token_hash"),
  CONSTRAINT "mail_reply_addresses_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "mail_reply_addresses_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
