-- AlterTable
ALTER TABLE "snapshots" ADD COLUMN "rules" TEXT NOT NULL DEFAULT '';
