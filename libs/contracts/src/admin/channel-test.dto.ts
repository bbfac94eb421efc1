import { ApiProperty } from '@nestjs/swagger';
import { UPSTREAM_ERROR_KINDS } from '@gateway/providers-core';
import { StringField } from '../validation/scalar-field.decorator';
import { NAME_RULES } from './admin-values.constants';

/** The optional body of a channel test. */
export class TestChannelDto {
  @StringField({
    description:
      'Model to test with, one the channel offers; by default the first model its cheapest capability serves.',
    optional: true,
    ...NAME_RULES,
  })
  model?: string;
}

/** The upstream's failure, as the channel type's adapter classified it. */
export class ChannelTestErrorView {
  @ApiProperty({ description: 'Failure kind.', enum: [...UPSTREAM_ERROR_KINDS] })
  kind: string;

  @ApiProperty({ description: "The upstream's message (never a secret)." })
  message: string;
}

/**
 * The outcome of one small real call through a channel. Nothing is billed and the channel's circuit
 * is neither opened nor closed by it.
 */
export class ChannelTestView {
  @ApiProperty({
    description: 'true: the upstream answered; false: it failed (see error); null: skipped (see skipped).',
    type: Boolean,
    nullable: true,
  })
  ok: boolean | null;

  @ApiProperty({ description: 'Why no call was made; only when ok is null.', required: false })
  skipped?: string;

  @ApiProperty({
    description: 'Time of the upstream call, ms; absent when skipped.',
    required: false,
    type: 'integer',
  })
  latencyMs?: number;

  @ApiProperty({ description: 'Model the call used; absent when skipped.', required: false })
  model?: string;

  @ApiProperty({ description: 'Capability the call exercised (text, …).', example: 'text' })
  capability: string;

  @ApiProperty({
    description: "The upstream's HTTP status of a failure, when it answered.",
    required: false,
    type: 'integer',
  })
  status?: number;

  @ApiProperty({
    description: 'The failure; only when ok is false.',
    required: false,
    type: () => ChannelTestErrorView,
  })
  error?: ChannelTestErrorView;
}
