import { Module } from '@nestjs/common';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { GatewayExceptionFilter } from '../http/gateway-exception.filter';
import { ResponseMetrics } from '../http/response-metrics';
import { GenerationRoutes } from './generation-routes';
import { NativeTextController } from './native-text.controller';
import { OpenAiTextController } from './openai-text.controller';
import { RefusalLog } from './refusal-log';
import { SettlementRecorder } from './settlement-recorder';
import { TextGenerationService } from './text-generation.service';

@Module({
  controllers: [NativeTextController, OpenAiTextController],
  providers: [
    TextGenerationService,
    SettlementRecorder,
    RefusalLog,
    ResponseMetrics,
    ApiKeyGuard,
    GatewayExceptionFilter,
    GenerationRoutes,
  ],
  exports: [SettlementRecorder],
})
export class TextModule {}
