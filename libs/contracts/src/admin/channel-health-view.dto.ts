import { ApiProperty } from '@nestjs/swagger';
import { ChannelView } from './channel-view.dto';

export const CIRCUIT_STATES = ['closed', 'open', 'half_open'] as const;

/** The channel's circuit breaker as every instance shares it (Redis). */
export class ChannelCircuitView {
  @ApiProperty({
    description:
      'closed: takes traffic; open: refused until its cool-down ends; half_open: one probe may pass.',
    enum: [...CIRCUIT_STATES],
  })
  state: (typeof CIRCUIT_STATES)[number];

  @ApiProperty({
    description: 'When the circuit opened (ISO 8601); only when not closed.',
    required: false,
    format: 'date-time',
  })
  openedAt?: string;
}

/** The channel's requests of the last minutes, from the request log. */
export class ChannelRecentErrorsView {
  @ApiProperty({ description: 'Length of the window, minutes, ending now.', type: 'integer', example: 15 })
  windowMinutes: number;

  @ApiProperty({ description: 'Requests the channel served in the window.', type: 'integer' })
  requests: number;

  @ApiProperty({
    description: 'Of those, the ones the upstream failed (end reason upstream_error or task_failed).',
    type: 'integer',
  })
  errors: number;

  @ApiProperty({ description: 'errors / requests, 0 without requests.', example: 0.25 })
  errorRate: number;
}

/** A channel with its health: what the list and the single read show. */
export class ChannelHealthView extends ChannelView {
  @ApiProperty({ type: () => ChannelCircuitView })
  circuit: ChannelCircuitView;

  @ApiProperty({ type: () => ChannelRecentErrorsView })
  recentErrors: ChannelRecentErrorsView;
}
