-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "request_cleared_at" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "tasks_status_updated_at_idx" ON "tasks"("status", "updated_at");

-- CreateIndex
CREATE INDEX "tasks_status_request_cleared_at_updated_at_idx" ON "tasks"("status", "request_cleared_at", "updated_at");
