-- A gated job that has closed its gate deletes its own row instead of only giving up its key
-- and attempts (migration 20261226090000_gate_job_ends). With the key and attempts given up,
-- a row whose completion never came (the process died, or graphile-worker could not write the
-- completion) was freed by the dead-runner cleanup and then stayed for good as a job with no
-- attempts left, which it was not: its work was done. Deleted in the closing transaction, the
-- row is gone with the gate's close: nothing runs it again, nothing is left behind, and
-- graphile-worker's batched completion deletes nothing (a DELETE of a row already gone is a
-- no-op, so the two never wait on each other). A DELETE also writes less than the UPDATE did
-- (no new row version, no new index entries).
CREATE OR REPLACE FUNCTION "give_up_job_key"(p_key TEXT) RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM graphile_worker._private_jobs WHERE key = p_key AND locked_at IS NOT NULL;
END;
$$;
