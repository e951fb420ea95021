-- The job queue is graphile-worker's (schema graphile_worker, installed by its own
-- migrations after these). This table is ours: each server process says here, every few
-- seconds, that its job runners live, so the jobs of a process that died are freed for
-- the others at once instead of after graphile-worker's four hours.
CREATE TABLE "queue_workers" (
    "worker_id" TEXT NOT NULL,
    "seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "queue_workers_pkey" PRIMARY KEY ("worker_id")
);
