import { Module } from '@nestjs/common';
import { ApiKeyGuard } from '../../../platform/auth/api-key.guard';
import { GenerationModule } from '../../../pipeline/generation.module';
import { GatewayExceptionFilter } from '../../../platform/http/gateway-exception.filter';
import { ResponseMetrics } from '../../../platform/http/response-metrics';
import { GenerationRoutes } from './generation-routes';
import { NativeTextController } from './native-text.controller';
import { OpenAiTextController } from './openai-text.controller';
import { RefusalLog } from './refusal-log';
import { TextGenerationService } from './text-generation.service';

@Module({
  imports: [GenerationModule],
  controllers: [NativeTextController, OpenAiTextController],
  providers: [
    TextGenerationService,
    RefusalLog,
    ResponseMetrics,
    ApiKeyGuard,
    GatewayExceptionFilter,
    GenerationRoutes,
  ],
})
export class TextModule {}
