-- A gated job that closes its gate gives up its job key in the same transaction (its work is
-- done: graphile-worker deletes its row once the task returns, in a batched DELETE). Before,
-- the key stayed on the row until that DELETE, so a commit opening the gate again had
-- graphile-worker's add_job clear the key of the still-locked row itself: a group-commit
-- append opening two games' gates locked two such rows in its order while the play lane's
-- batched completion deleted them in its own, and PostgreSQL broke the deadlock after a
-- second (seen in the bench: "Failed to complete jobs ...: deadlock detected", the runner
-- restarted). Attempts are spent, as add_job does to a locked job it replaces, so a process
-- that dies before the DELETE does not run the finished job again.

CREATE OR REPLACE FUNCTION "close_notify_gate"(p_key TEXT, p_game UUID) RETURNS BOOLEAN LANGUAGE plpgsql AS $$
DECLARE
  g job_gates;
  m job_gate_marks;
BEGIN
  SELECT * INTO g FROM job_gates WHERE key = p_key FOR UPDATE;
  IF NOT FOUND OR NOT g.open THEN
    RETURN true;
  END IF;
  SELECT * INTO m FROM job_gate_marks WHERE key = p_key;
  IF EXISTS (SELECT 1 FROM outbox o WHERE o.game_id = p_game AND o.id > COALESCE(m.through_id, 0) AND o.version > COALESCE(m.through, 0)) THEN
    RETURN false;
  END IF;
  UPDATE job_gates SET open = false WHERE key = p_key;
  UPDATE graphile_worker._private_jobs SET key = NULL, attempts = max_attempts WHERE key = p_key AND locked_at IS NOT NULL;
  RETURN true;
END;
$$;

CREATE OR REPLACE FUNCTION "close_webhook_gate"(p_key TEXT, p_webhook UUID, p_task TEXT, p_payload JSON, p_job_key TEXT, p_priority INTEGER, p_max_attempts INTEGER) RETURNS TEXT LANGUAGE plpgsql AS $$
DECLARE
  n INTEGER;
  first TIMESTAMPTZ;
  due BOOLEAN;
BEGIN
  PERFORM 1 FROM job_gates WHERE key = p_key FOR UPDATE;
  SELECT count(*), min(next_attempt_at), bool_or(next_attempt_at IS NULL OR next_attempt_at <= now()) INTO n, first, due
    FROM deliveries WHERE webhook_id = p_webhook AND status = 'PENDING';
  IF n > 0 AND due THEN
    RETURN 'due';
  END IF;
  UPDATE job_gates SET open = false WHERE key = p_key;
  UPDATE graphile_worker._private_jobs SET key = NULL, attempts = max_attempts WHERE key = p_key AND locked_at IS NOT NULL;
  IF n = 0 OR first IS NULL THEN
    RETURN 'idle';
  END IF;
  PERFORM graphile_worker.add_job(p_task, p_payload, run_at => first, max_attempts => p_max_attempts, job_key => p_job_key, priority => p_priority);
  RETURN 'waiting';
END;
$$;
