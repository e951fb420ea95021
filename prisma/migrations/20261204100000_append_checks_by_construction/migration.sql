-- The append's rows name their game by construction (issue 10): the one statement inserts the
-- command, its events and its outbox rows FROM the games row it has just updated under the
-- version guard, and the lobby writes a starting game's events and outbox rows in the
-- transaction that updated that row. The foreign keys to games re-checked this with a
-- locking lookup of the games row for every row inserted (six or so a command, about 15% of
-- PostgreSQL's CPU per command in the bench). No game is ever deleted, so their cascade
-- never ran. Every per-game table stays keyed by game_id first (see docs/scaling.md).
ALTER TABLE "game_events" DROP CONSTRAINT "game_events_game_id_fkey";
ALTER TABLE "commands" DROP CONSTRAINT "commands_game_id_fkey";
ALTER TABLE "outbox" DROP CONSTRAINT "outbox_game_id_fkey";
