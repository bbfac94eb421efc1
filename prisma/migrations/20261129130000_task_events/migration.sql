-- CreateTable
CREATE TABLE "task_events" (
    "seq" BIGSERIAL NOT NULL,
    "task_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "progress" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_events_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE INDEX "task_events_task_id_seq_idx" ON "task_events"("task_id", "seq");

-- CreateIndex
CREATE INDEX "task_events_created_at_idx" ON "task_events"("created_at");

-- The history the progress streams (GET /v1/tasks/{id}/events) replay and follow. Written by the
-- database itself, in the transaction of the change: every writer of a task's status or progress (the
-- step processor, the canceller, the /bt submission, the admin cancel, sweeps, and any writer added
-- later) is covered without publishing anything, and a change that rolls back is not recorded. `seq`
-- is the event id a stream sends: for one task it grows in commit order, since every change holds the
-- task's row lock until it commits. No NOTIFY: Postgres serialises the commits of every notifying
-- transaction (behind one lock, each waiting for its WAL flush), which cut task writes from about
-- 3,000/s to 400-600/s on the development machine; each gateway instance reads the new rows of the
-- tasks its streams follow with one query per TASK_EVENTS_POLL_MS instead.
CREATE FUNCTION task_event_recorded() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO task_events (task_id, status, progress) VALUES (NEW.id, NEW.status, NEW.progress);
  RETURN NULL;
END;
$$;

CREATE TRIGGER tasks_event_on_insert
AFTER INSERT ON tasks
FOR EACH ROW EXECUTE FUNCTION task_event_recorded();

CREATE TRIGGER tasks_event_on_change
AFTER UPDATE OF status, progress ON tasks
FOR EACH ROW
WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.progress IS DISTINCT FROM NEW.progress)
EXECUTE FUNCTION task_event_recorded();
