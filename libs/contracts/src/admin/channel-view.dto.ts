import { ApiProperty } from '@nestjs/swagger';
import { CHANNEL_STATUSES, ChannelStatus } from './admin-values.constants';
import { ChannelModelDto } from './channel.dto';

/** A channel as the admin API shows it; the secret appears only masked. */
export class ChannelView {
  @ApiProperty({ description: 'Channel id.' })
  id: string;

  @ApiProperty({ description: 'Channel type (wire protocol).', example: 'kappa' })
  type: string;

  @ApiProperty({ description: 'Unique channel name.' })
  name: string;

  @ApiProperty({ description: 'Base URL of the upstream.' })
  baseUrl: string;

  @ApiProperty({ description: 'The secret, masked but for its last characters.', example: '••••abcd' })
  secretMasked: string;

  @ApiProperty({ description: 'Models the channel offers.', type: () => ChannelModelDto, isArray: true })
  models: ChannelModelDto[];

  @ApiProperty({
    description: "Per-channel settings of the channel's type; secret settings masked like the secret.",
    type: 'object',
    additionalProperties: true,
  })
  settings: Record<string, unknown>;

  @ApiProperty({ description: 'Higher priority is tried first.', type: 'integer' })
  priority: number;

  @ApiProperty({ description: 'Traffic share.', type: 'integer' })
  weight: number;

  @ApiProperty({
    description: "Ceiling on the channel's task polls per second across every worker; null: none.",
    type: 'number',
    nullable: true,
  })
  pollsPerSecond: number | null;

  @ApiProperty({ description: 'Whether the channel takes traffic.', enum: [...CHANNEL_STATUSES] })
  status: ChannelStatus;

  @ApiProperty({ description: 'Creation time (ISO 8601).', format: 'date-time' })
  createdAt: string;

  @ApiProperty({ description: 'Last change (ISO 8601).', format: 'date-time' })
  updatedAt: string;
}
