-- A webhook sender's successful deliveries are recorded together (issue 27.3): with its next
-- read of what is due, or, at the end of its run, by the statement that closes its gate. This
-- close_webhook_gate first records them (p_delivered: DELIVERED, one attempt more, no next
-- attempt; the webhook's failures in a row back to 0), then locks the gate and looks for work
-- left as the one of migration 20261225090000 does, so the deliveries it recorded are not
-- taken for work left. A crash before the record sends those deliveries again, with the same
-- webhook-id (at least once, as always).
CREATE FUNCTION "close_webhook_gate"(p_key TEXT, p_webhook UUID, p_task TEXT, p_payload JSON, p_job_key TEXT, p_priority INTEGER, p_max_attempts INTEGER, p_delivered TEXT[]) RETURNS TEXT LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(p_delivered) > 0 THEN
    UPDATE deliveries SET status = 'DELIVERED', attempts = attempts + 1, updated_at = now(), next_attempt_at = NULL
      WHERE id = ANY(p_delivered) AND webhook_id = p_webhook;
    UPDATE webhooks SET failures = 0, failing_since = NULL WHERE id = p_webhook AND failures <> 0;
  END IF;
  RETURN close_webhook_gate(p_key, p_webhook, p_task, p_payload, p_job_key, p_priority, p_max_attempts);
END;
$$;
