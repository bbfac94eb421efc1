-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "image_count" INTEGER;
