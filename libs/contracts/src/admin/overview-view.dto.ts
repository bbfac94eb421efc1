import { ApiProperty } from '@nestjs/swagger';
import { OVERVIEW_BUCKETS, type OverviewBucket } from './usage-values.constants';

/** The figures of one time bucket. */
export class OverviewPoint {
  @ApiProperty({ description: 'Start of the bucket (ISO 8601, UTC).', format: 'date-time' })
  at: string;

  @ApiProperty({ description: 'Requests.', type: 'integer' })
  requests: number;

  @ApiProperty({ description: 'Requests that did not end `completed`.', type: 'integer' })
  errors: number;

  @ApiProperty({ description: 'Captured cost, in micros.', type: String, example: '1200' })
  spendMicros: string;

  @ApiProperty({ description: 'Median latency in milliseconds.', type: Number })
  latencyP50Ms: number;

  @ApiProperty({ description: '95th-percentile latency in milliseconds.', type: Number })
  latencyP95Ms: number;
}

/** One model's or channel's points. */
export class OverviewSeries {
  @ApiProperty({ description: 'The model or channel id; (other) for the rest, (none) for unknown.' })
  name: string;

  @ApiProperty({ type: OverviewPoint, isArray: true, description: 'Buckets with requests, oldest first.' })
  points: OverviewPoint[];
}

/** What the console's first page plots. Buckets without requests are left out. */
export class OverviewView {
  @ApiProperty({ description: 'Start of the window (ISO 8601).', format: 'date-time' })
  from: string;

  @ApiProperty({ description: 'End of the window, now (ISO 8601).', format: 'date-time' })
  to: string;

  @ApiProperty({ enum: [...OVERVIEW_BUCKETS], description: 'The width of one point.' })
  bucket: OverviewBucket;

  @ApiProperty({ type: OverviewPoint, isArray: true, description: 'All requests, oldest first.' })
  total: OverviewPoint[];

  @ApiProperty({ type: OverviewSeries, isArray: true, description: 'The top models, then (other).' })
  byModel: OverviewSeries[];

  @ApiProperty({ type: OverviewSeries, isArray: true, description: 'The top channels, then (other).' })
  byChannel: OverviewSeries[];
}
