-- CreateIndex
CREATE INDEX "tasks_hold_request_id_idx" ON "tasks"("hold_request_id");
