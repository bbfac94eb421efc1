import { DECORATORS } from '@nestjs/swagger';
import { CreateChannelDto } from '../admin/channel.dto';
import { ChatCompletionRequestDto } from '../openai/chat-completion-request.dto';
import { ContentDto } from '../native/content.dto';
import { NativeGenerateRequestDto } from '../native/native-generate-request.dto';

function documented(dtoClass: { prototype: object }, property: string): Record<string, unknown> {
  return Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, dtoClass.prototype, property) as Record<
    string,
    unknown
  >;
}

describe('OpenAPI documentation from the field decorators', () => {
  it('marks required and optional fields', () => {
    expect(documented(NativeGenerateRequestDto, 'contents')).toMatchObject({ required: true, isArray: true });
    expect(documented(NativeGenerateRequestDto, 'cachedContent')).toMatchObject({ required: false });
  });

  it('refers nested DTOs through a lazy type the document builder recognises', () => {
    const { type } = documented(NativeGenerateRequestDto, 'contents') as {
      type: (() => unknown) & { name: string };
    };
    expect(type.name).toBe('type');
    expect(type()).toBe(ContentDto);
  });

  it('documents ranges and nullability of the OpenAI-style wire', () => {
    expect(documented(ChatCompletionRequestDto, 'temperature')).toMatchObject({
      required: false,
      nullable: true,
      minimum: 0,
      maximum: 2,
    });
  });

  it('documents defaults and enumerations', () => {
    expect(documented(CreateChannelDto, 'weight')).toMatchObject({ default: 1, minimum: 1 });
    expect(documented(CreateChannelDto, 'status')).toMatchObject({ enum: ['enabled', 'disabled'] });
  });
});
