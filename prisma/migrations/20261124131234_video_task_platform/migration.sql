-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "deleted_at" TIMESTAMP(3),
ADD COLUMN     "media_seconds" INTEGER,
ADD COLUMN     "remixed_from_id" TEXT,
ADD COLUMN     "request_hash" TEXT;

-- CreateIndex
CREATE INDEX "tasks_account_id_kind_created_at_idx" ON "tasks"("account_id", "kind", "created_at");
