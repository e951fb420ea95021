-- A cheaper append (issue 10): less per-row PL/pgSQL on the command path.

-- The outbox's created_at is the database's time through the column default: the store's
-- statements never give it, and the Prisma schema declares it dbgenerated, so Prisma's
-- createMany no longer fills it in with a process's clock. The per-row trigger that
-- overwrote it goes.
DROP TRIGGER "outbox_created_at" ON "outbox";
DROP FUNCTION "outbox_database_time"();
ALTER TABLE "outbox" ALTER COLUMN "created_at" SET DEFAULT now();

-- Whether a commit adds the notify job is now plain SQL inside the commit's own statement
-- (src/persistence/jobs.ts, notifyJobSql), planned once with it, not a function call per
-- command.
DROP FUNCTION "notify_commit"(UUID, INTEGER, TEXT, UUID[], BOOLEAN);
