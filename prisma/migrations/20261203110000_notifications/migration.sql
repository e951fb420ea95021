-- Notifications: players' webhooks, every delivery (webhook POST or mail) with a stable id,
-- and the "your turn" mail already sent per player and game.
CREATE TABLE "webhooks" (
    "id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    -- null: every game of the player
    "game_id" UUID,
    "url" TEXT NOT NULL,
    "events" TEXT[] NOT NULL,
    -- the signing secret, encrypted (AES-256-GCM) with a key the database never holds
    "secret" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "disabled_at" TIMESTAMPTZ(3),
    "disabled_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhooks_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "webhooks_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "webhooks_player_id_idx" ON "webhooks"("player_id");
CREATE INDEX "webhooks_game_id_idx" ON "webhooks"("game_id");

CREATE TABLE "deliveries" (
    -- stable: the same id on every attempt (the webhook-id header)
    "id" TEXT NOT NULL,
    -- WEBHOOK | MAIL
    "channel" TEXT NOT NULL,
    "webhook_id" UUID,
    "player_id" UUID,
    "game_id" UUID NOT NULL,
    "event" TEXT NOT NULL,
    "seat" TEXT,
    "version" INTEGER NOT NULL,
    -- the webhook's JSON body, or the mail's subject, text and html
    "body" JSONB NOT NULL,
    -- PENDING | DELIVERED | FAILED | CANCELLED
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deliveries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "deliveries_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "deliveries_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "deliveries_webhook_id_created_at_idx" ON "deliveries"("webhook_id", "created_at");

-- The last version a "your turn" mail was sent at, per player and game: no other until the player acts.
CREATE TABLE "your_turn_mails" (
    "player_id" UUID NOT NULL,
    "game_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,

    CONSTRAINT "your_turn_mails_pkey" PRIMARY KEY ("player_id", "game_id"),
    CONSTRAINT "your_turn_mails_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Called in the statement that commits a game's events: adds the job that turns the commit's
-- outbox rows into deliveries, only when someone listens (a webhook of the game or of one of
-- its players, or a player who wants mail), since adding a job NOTIFYs in the transaction.
CREATE FUNCTION "notify_commit"(p_game UUID, p_version INTEGER, p_status TEXT, p_players UUID[], p_mail BOOLEAN) RETURNS INTEGER
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM webhooks w WHERE w.disabled_at IS NULL AND (w.game_id = p_game OR (w.game_id IS NULL AND w.player_id = ANY(p_players))))
     OR (p_mail AND cardinality(p_players) > 0 AND EXISTS (
       SELECT 1 FROM players p WHERE p.id = ANY(p_players) AND p.notify_by_email AND p.email_verified AND p.email IS NOT NULL)) THEN
    PERFORM graphile_worker.add_job('notify', json_build_object('gameId', p_game, 'version', p_version, 'status', p_status), max_attempts => 25);
    RETURN 1;
  END IF;
  RETURN 0;
END
$$;
