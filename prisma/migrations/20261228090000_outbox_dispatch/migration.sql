-- Notifications follow the outbox (issue 27.3, round ten). One dispatcher at a time (a
-- PostgreSQL advisory lock held by one process running workers) reads the outbox in the
-- order of its writing transactions, fans the rows out to deliveries and sends the webhooks'
-- deliveries itself. Commits add no job and lock no gate for it: the outbox rows they write
-- anyway are the work. This replaces the gates of migrations 20261225090000 and 20261226090000.

-- Where the dispatcher is in the outbox: the last row fanned out, in (tx, id) order. A reader
-- takes only rows whose transaction is older than every transaction still running
-- (pg_snapshot_xmin), so no row can later appear before the mark.
CREATE TABLE "outbox_marks" (
  "name" TEXT PRIMARY KEY,
  "tx" XID8 NOT NULL,
  "id" BIGINT NOT NULL
);
CREATE INDEX "outbox_tail" ON "outbox" ("tx", "id");

-- The mark starts before the first row a notify gate had not fanned out yet (a commit stored
-- just before this release), else at the oldest transaction still running: nothing is fanned
-- out twice that was fanned out before (the deliveries' ids are stable anyway), nothing stored
-- is skipped.
INSERT INTO "outbox_marks" ("name", "tx", "id")
SELECT 'notify', t.tx, t.id FROM (
  SELECT o.tx, o.id - 1 AS id FROM job_gates g JOIN job_gate_marks m ON m.key = g.key
    JOIN outbox o ON o.game_id = substr(g.key, 8)::uuid AND o.id > COALESCE(m.through_id, 0) AND o.version > m.through
    WHERE g.open AND g.key LIKE 'notify:%'
  UNION ALL
  SELECT pg_snapshot_xmin(pg_current_snapshot()), 0
) t ORDER BY t.tx, t.id LIMIT 1;

-- The webhooks' deliveries due, oldest first, across every webhook (the dispatcher's read).
CREATE INDEX "deliveries_due" ON "deliveries" ("seq") WHERE "status" = 'PENDING' AND "channel" = 'WEBHOOK';
DROP INDEX IF EXISTS "deliveries_pending";

-- The gates and everything that kept them.
DROP FUNCTION "settle_webhook_gate"(TEXT, UUID, TEXT, JSON, TEXT, INTEGER, INTEGER, TEXT[]);
DROP FUNCTION "settle_notify_gate"(TEXT, UUID);
DROP FUNCTION "give_up_job_key"(TEXT);
DROP FUNCTION "record_delivered"(UUID, TEXT[]);
DROP FUNCTION "close_webhook_gate"(TEXT, UUID, TEXT, JSON, TEXT, INTEGER, INTEGER);
DROP FUNCTION "close_notify_gate"(TEXT, UUID);
DROP FUNCTION "open_job_gate"(TEXT, INTEGER);
DROP TABLE "job_gate_marks";
DROP TABLE "job_gates";
