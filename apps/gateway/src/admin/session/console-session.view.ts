import { ApiProperty } from '@nestjs/swagger';

/** The console session the request's cookie names. */
export class ConsoleSessionView {
  @ApiProperty({
    description: 'When the session ends (CONSOLE_SESSION_TTL after sign-in); sign in again then.',
    type: String,
    format: 'date-time',
  })
  expiresAt: string;
}
