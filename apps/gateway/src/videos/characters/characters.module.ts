import { Module } from '@nestjs/common';
import { ApiKeyGuard } from '../../auth/api-key.guard';
import { GenerationModule } from '../../generation/generation.module';
import { CharacterCreationService } from './character-creation.service';
import { CharactersController } from './characters.controller';

/** `POST /delta/v1/characters`: delta character creation from a clip the gateway downloads. */
@Module({
  imports: [GenerationModule],
  controllers: [CharactersController],
  providers: [CharacterCreationService, ApiKeyGuard],
})
export class CharactersModule {}
