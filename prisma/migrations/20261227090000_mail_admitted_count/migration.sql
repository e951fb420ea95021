-- Play by mail's rate limit counts admitted mails only (admitted_at, set by MailStore.admit).
-- It counted every mail read as the player's, refused ones included (handled() records the
-- player of those too), so a player who kept sending stayed refused however long the hour.
ALTER TABLE "inbound_mails" ADD COLUMN "admitted_at" TIMESTAMPTZ(3);
-- Mails admitted before: those with a player that the limit did not refuse.
UPDATE "inbound_mails" SET "admitted_at" = "received_at"
WHERE "player_id" IS NOT NULL AND "outcome" IS DISTINCT FROM 'ignored: rate limited';
DROP INDEX "inbound_mails_player_id_received_at_idx";
CREATE INDEX "inbound_mails_player_id_admitted_at_idx" ON "inbound_mails"("player_id", "admitted_at");
