-- Correspondence clocks (issue 15): seconds for each decision, a deadline per awaited seat.

-- The clock a game was created with: seconds each awaited seat has for each decision
-- (NULL: no clock, no deadlines).
ALTER TABLE "games" ADD COLUMN "clock_per_move" INTEGER;

-- A seat's time starts when the game starts awaiting it: the SEAT_AWAITED outbox row,
-- written with the events in the same statement, its created_at set by the database's
-- clock (now()). Its deadline is created_at + clock_per_move, and its job in the queue
-- (graphile-worker) is added by this trigger in that same transaction, so a committed
-- awaited seat always has its job and a rolled-back one never has: a restart of every
-- process loses none (they are rows in PostgreSQL). One job per game and seat (job_key):
-- a new decision of the seat replaces it. The job says the version at which the deadline
-- was set; the time-out is submitted at that version, so a command landing first wins.
-- A second job warns when a quarter of the time is left.
-- The outbox's created_at is the database's time, whoever writes the row: a client library
-- that fills in a default itself (Prisma's createMany does, for @default(now())) would
-- otherwise put a process's clock there.
CREATE FUNCTION "outbox_database_time"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.created_at := now();
  RETURN NEW;
END $$;

CREATE TRIGGER "outbox_created_at" BEFORE INSERT ON "outbox"
  FOR EACH ROW EXECUTE FUNCTION "outbox_database_time"();

CREATE FUNCTION "clock_schedule_deadline"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  per_move INTEGER;
  payload JSON;
BEGIN
  SELECT clock_per_move INTO per_move FROM games WHERE id = NEW.game_id;
  IF per_move IS NULL OR NEW.seat IS NULL THEN
    RETURN NULL;
  END IF;
  payload := json_build_object('gameId', NEW.game_id, 'seat', NEW.seat, 'version', NEW.version,
    'deadline', NEW.created_at + make_interval(secs => per_move));
  PERFORM graphile_worker.add_job('deadline_passed', payload,
    run_at := NEW.created_at + make_interval(secs => per_move),
    job_key := 'deadline:' || NEW.game_id || ':' || NEW.seat, job_key_mode := 'replace');
  PERFORM graphile_worker.add_job('deadline_soon', payload,
    run_at := NEW.created_at + make_interval(secs => per_move * 0.75),
    job_key := 'deadline-soon:' || NEW.game_id || ':' || NEW.seat, job_key_mode := 'replace', max_attempts := 5);
  RETURN NULL;
END $$;

CREATE TRIGGER "outbox_clock_deadline" AFTER INSERT ON "outbox"
  FOR EACH ROW WHEN (NEW.kind = 'SEAT_AWAITED') EXECUTE FUNCTION "clock_schedule_deadline"();

-- A seat the game no longer awaits (it acted, it is out, the game ended): its jobs go.
-- (A job that still runs finds the deadline gone and does nothing.)
CREATE FUNCTION "clock_cancel_deadlines"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s TEXT;
BEGIN
  FOR s IN SELECT unnest(OLD.awaiting) EXCEPT SELECT unnest(NEW.awaiting) LOOP
    PERFORM graphile_worker.remove_job('deadline:' || NEW.id || ':' || s);
    PERFORM graphile_worker.remove_job('deadline-soon:' || NEW.id || ':' || s);
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER "games_clock_cancel" AFTER UPDATE OF "awaiting" ON "games"
  FOR EACH ROW WHEN (NEW.clock_per_move IS NOT NULL AND OLD.awaiting IS DISTINCT FROM NEW.awaiting)
  EXECUTE FUNCTION "clock_cancel_deadlines"();
