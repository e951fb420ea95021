-- CreateTable
CREATE TABLE "games" (
    "id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "options" JSONB NOT NULL,
    "players" JSONB NOT NULL,
    "seed_commitment" TEXT NOT NULL,
    "seed" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "awaiting" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "result" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "games_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "game_events" (
    "game_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "seat" TEXT,
    "data" JSONB NOT NULL,
    "rolls" JSONB,
    "command_id" BIGINT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "game_events_stream_version" PRIMARY KEY ("game_id","version")
);

-- CreateTable
CREATE TABLE "commands" (
    "id" BIGSERIAL NOT NULL,
    "game_id" UUID NOT NULL,
    "seat" TEXT NOT NULL,
    "command" JSONB NOT NULL,
    "idempotency_key" TEXT,
    "first_version" INTEGER NOT NULL,
    "last_version" INTEGER NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "commands_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "seat_tokens" (
    "token_hash" TEXT NOT NULL,
    "game_id" UUID NOT NULL,
    "seat" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "seat_tokens_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "snapshots" (
    "game_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "state" JSONB NOT NULL,

    CONSTRAINT "snapshots_pkey" PRIMARY KEY ("game_id","version")
);

-- CreateIndex
CREATE INDEX "games_type_status_idx" ON "games"("type", "status");

-- CreateIndex
CREATE INDEX "commands_game_id_first_version_idx" ON "commands"("game_id", "first_version");

-- CreateIndex
CREATE UNIQUE INDEX "commands_idempotency" ON "commands"("game_id", "seat", "idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "seat_tokens_game_id_seat_key" ON "seat_tokens"("game_id", "seat");

-- AddForeignKey
ALTER TABLE "game_events" ADD CONSTRAINT "game_events_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "commands" ADD CONSTRAINT "commands_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "seat_tokens" ADD CONSTRAINT "seat_tokens_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "snapshots" ADD CONSTRAINT "snapshots_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;
