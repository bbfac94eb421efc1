-- AlterTable
ALTER TABLE "channels" ADD COLUMN     "settings" JSONB NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "request_logs" ADD COLUMN     "image_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "media_seconds" INTEGER NOT NULL DEFAULT 0;
