-- The outbox's rows say whether anyone listened to their game when they were written (issue
-- 27, round eleven). The dispatcher reads only those: a commit of a game that no webhook
-- hears and no player gets mail for costs nothing past its own row (the tail's index holds
-- only heard rows). A webhook created, or mail turned on, after a commit does not hear that
-- commit, as before (a webhook hears only the commits made after it was created).
-- Rows written before this migration, and by writers that do not say (a game's creation),
-- count as heard: the dispatcher reads them and looks who listens, as it did.
ALTER TABLE "outbox" ADD COLUMN "heard" BOOLEAN NOT NULL DEFAULT true;
DROP INDEX "outbox_tail";
CREATE INDEX "outbox_tail" ON "outbox" ("tx", "id") WHERE "heard";

-- Read by nothing since the outbox pollers and the notify gates went (every read is by game,
-- the primary key, or the dispatcher's tail): one index less to write for every row.
DROP INDEX "outbox_id";
