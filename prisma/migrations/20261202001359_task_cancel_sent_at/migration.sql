-- cancel_sent_at: set by a client's cancel just before the upstream's wire is asked to cancel, cleared
-- when it refuses. That cancel deletes the upstream's record, so a worker whose poll lands in between
-- finds it gone; the mark makes it end the task cancelled, as the client asked, instead of failed.
-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "cancel_sent_at" TIMESTAMP(3);
