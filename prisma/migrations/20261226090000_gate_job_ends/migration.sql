-- How a gated job's run ends (issue 27.3), on top of the gates of migration
-- 20261225090000_coalesced_notifications, whose functions stay as they are.

-- A webhook sender's successes, recorded together (with its next read of what is due, or by
-- the statement that ends its run) instead of one statement a delivery: DELIVERED, one attempt
-- more, no next attempt; the webhook's failures in a row back to 0. A crash before the record
-- sends those deliveries again, with the same webhook-id (at least once, as always).
CREATE FUNCTION "record_delivered"(p_webhook UUID, p_delivered TEXT[]) RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(p_delivered) > 0 THEN
    UPDATE deliveries SET status = 'DELIVERED', attempts = attempts + 1, updated_at = now(), next_attempt_at = NULL
      WHERE id = ANY(p_delivered) AND webhook_id = p_webhook;
    UPDATE webhooks SET failures = 0, failing_since = NULL WHERE id = p_webhook AND failures <> 0;
  END IF;
END;
$$;

-- The running job of gate p_key, which has just closed its gate, gives up its job key (its
-- work is done: graphile-worker deletes its row once the task returns, in a batched DELETE).
-- Left on the row until then, the key had the commit opening the gate again clear it through
-- add_job, locking that row: a group-commit append opening two games' gates locked two such
-- rows in its order while the play lane's batched completion deleted them in its own, and
-- PostgreSQL broke the deadlock after a second ("Failed to complete jobs ...: deadlock
-- detected", the runner restarted). Its attempts are spent, as add_job does to a locked job it
-- replaces, so a process that dies before the DELETE does not run the finished job again.
-- (plpgsql: its body is not checked at creation, and graphile-worker's schema is migrated after ours.)
CREATE FUNCTION "give_up_job_key"(p_key TEXT) RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  UPDATE graphile_worker._private_jobs SET key = NULL, attempts = max_attempts WHERE key = p_key AND locked_at IS NOT NULL;
END;
$$;

-- The end of a game's fan-out run: close_notify_gate, and once closed, the key given up.
CREATE FUNCTION "settle_notify_gate"(p_key TEXT, p_game UUID) RETURNS BOOLEAN LANGUAGE plpgsql AS $$
DECLARE
  closed BOOLEAN;
BEGIN
  closed := close_notify_gate(p_key, p_game);
  IF closed THEN
    PERFORM give_up_job_key(p_key);
  END IF;
  RETURN closed;
END;
$$;

-- The end of a webhook sender's run: its successes recorded first (so close_webhook_gate does
-- not take them for work left), close_webhook_gate, and once closed, the key given up.
CREATE FUNCTION "settle_webhook_gate"(p_key TEXT, p_webhook UUID, p_task TEXT, p_payload JSON, p_job_key TEXT, p_priority INTEGER, p_max_attempts INTEGER, p_delivered TEXT[]) RETURNS TEXT LANGUAGE plpgsql AS $$
DECLARE
  state TEXT;
BEGIN
  PERFORM record_delivered(p_webhook, p_delivered);
  state := close_webhook_gate(p_key, p_webhook, p_task, p_payload, p_job_key, p_priority, p_max_attempts);
  IF state <> 'due' THEN
    PERFORM give_up_job_key(p_key);
  END IF;
  RETURN state;
END;
$$;
