import { Prisma } from '@gateway/db';

/** A unique constraint refused the write (P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}

/** An update or delete found no row to act on (P2025). */
export function isRecordMissing(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2025';
}

/** A `.catch` handler answering a missing row with the given not-found error and passing others on. */
export function missingRecordAs(notFound: () => Error): (error: unknown) => never {
  return (error: unknown): never => {
    throw isRecordMissing(error) ? notFound() : error;
  };
}
