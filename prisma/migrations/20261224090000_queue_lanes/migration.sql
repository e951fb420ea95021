-- Lanes of the job queue (issue 24.2, 24.6): each runner says how long it may stay silent
-- before it is taken for dead. The clocks' runners beat every second and are dead after a
-- few seconds, so a deadline held by a process that died runs elsewhere within seconds;
-- the other lanes keep the long default (NULL: the reclaiming process's QUEUE_DEAD_AFTER_MS).
ALTER TABLE "queue_workers" ADD COLUMN "dead_after_ms" INTEGER;
