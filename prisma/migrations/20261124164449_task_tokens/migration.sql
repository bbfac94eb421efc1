-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "input_tokens" INTEGER,
ADD COLUMN     "output_tokens" INTEGER;
