-- AlterTable
ALTER TABLE "channels" ADD COLUMN     "polls_per_second" DOUBLE PRECISION;
