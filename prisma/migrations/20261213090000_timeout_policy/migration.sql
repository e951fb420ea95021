-- When a seat's time runs out (issue 23, "When a seat times out"): RESIGN (NULL, as before:
-- the seat is out) or BOT (the seat is handed to the service's random bot for the rest of
-- the game). Read by the deadline task; the seat itself moves to `bots`/`seats` once its
-- SeatHandedToBot event is stored.
ALTER TABLE "games" ADD COLUMN "clock_on_timeout" TEXT;
