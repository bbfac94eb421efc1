import { ApiProperty } from '@nestjs/swagger';

/*
 * The error bodies of the route families as the OpenAPI document describes them; the renderers in
 * ../errors (and the lambda envelope) write them. error-responses.ts attaches each to its family's routes.
 */

export class OpenAiErrorDetailView {
  @ApiProperty({ description: 'What went wrong, naming the field and the rule.' })
  message: string;

  @ApiProperty({ example: 'invalid_request_error' })
  type: string;

  @ApiProperty({ description: 'The field at fault, when one is.', type: String, nullable: true })
  param: string | null;

  @ApiProperty({ example: 'model_not_found' })
  code: string;
}

/** `/v1/*`, `/admin/*` and the other routes without a family of their own. */
export class OpenAiErrorView {
  @ApiProperty({ type: OpenAiErrorDetailView })
  error: OpenAiErrorDetailView;
}

export class NativeErrorDetailView {
  @ApiProperty({ description: 'The HTTP status.', type: 'integer', example: 400 })
  code: number;

  @ApiProperty()
  message: string;

  @ApiProperty({ example: 'INVALID_ARGUMENT' })
  status: string;
}

/** `/v1beta/*`. */
export class NativeErrorView {
  @ApiProperty({ type: NativeErrorDetailView })
  error: NativeErrorDetailView;
}

export class AlphaErrorMetadataView {
  @ApiProperty({ description: 'The gateway’s request id.' })
  trace_id: string;
}

/** `/alpha/*` (upstreams.md §3.6). */
export class AlphaErrorView {
  @ApiProperty({ description: 'The HTTP status.', type: 'integer', example: 400 })
  code: number;

  @ApiProperty({ example: 'FieldInvalid' })
  reason: string;

  @ApiProperty()
  message: string;

  @ApiProperty({ type: AlphaErrorMetadataView })
  metadata: AlphaErrorMetadataView;
}

/** `/gamma/*` (upstreams.md §5.8). */
export class GammaErrorView {
  @ApiProperty({ description: 'The class of the error, e.g. 1201 for a refused field.', type: 'integer' })
  code: number;

  @ApiProperty()
  message: string;

  @ApiProperty({ description: 'The gateway’s request id.' })
  request_id: string;
}

/** `/lambda/*` (upstreams.md §9.3, §9.5). */
export class LambdaErrorView {
  @ApiProperty({ description: 'The gateway’s error code, never `success`.', example: 'invalid_request' })
  code: string;

  @ApiProperty()
  message: string;

  @ApiProperty({ description: 'Always null.', type: Object, nullable: true })
  data: null;
}

/** `/bt` business errors (upstreams.md §4.6): the success envelope with another code and no data. */
export class BetaBusinessErrorView {
  @ApiProperty({ description: 'Business code, e.g. 50205 for an invalid parameter.', type: 'integer' })
  code: number;

  @ApiProperty({ description: 'The same as `code`.', type: 'integer' })
  status: number;

  @ApiProperty()
  message: string;

  @ApiProperty()
  request_id: string;

  @ApiProperty({ example: '12ms' })
  time_elapsed: string;

  @ApiProperty({ description: 'Always null.', type: Object, nullable: true })
  data: null;
}

export class BetaMetadataErrorDetailView {
  @ApiProperty({ example: 'InvalidActionOrVersion' })
  Code: string;

  @ApiProperty()
  Message: string;
}

export class BetaResponseMetadataView {
  @ApiProperty()
  RequestId: string;

  @ApiProperty()
  Action: string;

  @ApiProperty()
  Version: string;

  @ApiProperty({ type: BetaMetadataErrorDetailView })
  Error: BetaMetadataErrorDetailView;
}

/** `/bt` refusals of the call itself: its credential, `Action` or `Version` (upstreams.md §4.2). */
export class BetaMetadataErrorView {
  @ApiProperty({ type: BetaResponseMetadataView })
  ResponseMetadata: BetaResponseMetadataView;
}
