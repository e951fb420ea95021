-- Absence (docs/api.md, "Absence"): while a player is absent the clocks of their seats stand
-- still. Nothing is paused per game: a seat's deadline stays derived from when it became
-- awaited (its SEAT_AWAITED row), the game's clock and the player's absences, by
-- absence_deadline below (the same rule as deadlineWith in src/app/absence.ts). A request
-- that ends an absence early sets its "until" to now(); one not begun is deleted.
CREATE TABLE "absences" (
  "id" UUID NOT NULL,
  "player_id" UUID NOT NULL,
  "starts_at" TIMESTAMPTZ(3) NOT NULL,
  "ends_at" TIMESTAMPTZ(3) NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT "absences_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "absences_span" CHECK ("ends_at" > "starts_at"),
  CONSTRAINT "absences_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "absences_player_id_ends_at_idx" ON "absences"("player_id", "ends_at");

-- When `secs` of a seat's time, counted from `from_at`, run out for player `player`: the
-- time inside the player's absences (their part after from_at) does not count. Absences of
-- one player never overlap (the store refuses it, one request of a player at a time).
CREATE FUNCTION "absence_deadline"(player UUID, from_at TIMESTAMPTZ, secs DOUBLE PRECISION) RETURNS TIMESTAMPTZ
LANGUAGE plpgsql STABLE AS $$
DECLARE
  d TIMESTAMPTZ := from_at + make_interval(secs => secs);
  a RECORD;
BEGIN
  IF player IS NULL THEN RETURN d; END IF;
  FOR a IN SELECT starts_at, ends_at FROM absences WHERE player_id = player AND ends_at > from_at ORDER BY starts_at LOOP
    EXIT WHEN a.starts_at >= d;
    d := d + (a.ends_at - greatest(a.starts_at, from_at));
  END LOOP;
  RETURN d;
END $$;

-- The player holding a seat of a game (null: a seat token, a bot, open).
CREATE FUNCTION "seat_player"(seats JSONB, seat TEXT) RETURNS UUID
LANGUAGE sql IMMUTABLE AS $$
  SELECT (e->>'playerId')::uuid FROM jsonb_array_elements(seats) e WHERE e->>'seat' = seat AND e->>'kind' = 'player' LIMIT 1
$$;
