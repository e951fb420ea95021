-- What follows a commit is planned by the core (src/app/planners.ts) and added with the
-- commit in its own statement: a deadline's jobs too, timed from the statement's now() (the
-- database's clock, as the triggers did). The triggers that computed them in SQL go.
DROP TRIGGER "outbox_clock_deadline" ON "outbox";
DROP FUNCTION "clock_schedule_deadline"();
DROP TRIGGER "games_clock_cancel" ON "games";
DROP FUNCTION "clock_cancel_deadlines"();

-- Bots move by a job their commit adds (no sweep any more): a game awaiting a bot when this
-- runs gets its job now. On a new database the queue's schema comes after this migration,
-- and there is no such game.
DO $$
BEGIN
  IF to_regnamespace('graphile_worker') IS NOT NULL THEN
    PERFORM graphile_worker.add_job('bot_move', json_build_object('gameId', id, 'version', version), job_key => 'bot:' || id, priority => -2)
    FROM games WHERE cardinality(bots) > 0 AND status IN ('SETUP', 'ACTIVE') AND awaiting && bots;
  END IF;
END $$;
