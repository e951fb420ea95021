-- When a seat's "deadline soon" warning is due (docs/api.md, "Absence"): when a quarter of its
-- time is left (absence_deadline of three quarters of it), or, if absences of the player begin
-- after that and before the deadline, when the last of them ends: the player is back, facing
-- the deadline the absences moved, and a warning given before they left named the earlier one.
-- The same rule as warningWith in src/app/absence.ts.
CREATE FUNCTION "absence_warning"(player UUID, from_at TIMESTAMPTZ, secs DOUBLE PRECISION) RETURNS TIMESTAMPTZ
LANGUAGE sql STABLE AS $$
  SELECT greatest(w.soon, (
    SELECT max(a.ends_at) FROM absences a WHERE a.player_id = absence_warning.player AND a.starts_at >= w.soon AND a.starts_at < w.deadline
  ))
  FROM (SELECT absence_deadline(player, from_at, secs * 0.75) AS soon, absence_deadline(player, from_at, secs) AS deadline) w
$$;
