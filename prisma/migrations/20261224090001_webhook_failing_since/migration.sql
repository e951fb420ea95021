-- A failing webhook is disabled sooner (issue 24.2): after `failures` attempts in a row that
-- failed over at least a while, counted from the first failure of the run (NULL: the last
-- attempt succeeded).
ALTER TABLE "webhooks" ADD COLUMN "failing_since" TIMESTAMPTZ(3);
