import { Module } from '@nestjs/common';
import { ApiKeyGuard } from '../../../platform/auth/api-key.guard';
import { GenerationModule } from '../../../pipeline/generation.module';
import { CharacterCreationService } from './character-creation.service';
import { CharactersController } from './characters.controller';
import { VideoCharacterStore } from './video-character.store';

/** `POST /delta/v1/characters`: delta character creation from a clip the gateway downloads. */
@Module({
  imports: [GenerationModule],
  controllers: [CharactersController],
  providers: [CharacterCreationService, VideoCharacterStore, ApiKeyGuard],
  exports: [CharacterCreationService, VideoCharacterStore],
})
export class CharactersModule {}
