import { ApiProperty } from '@nestjs/swagger';

/** Answer of `POST /delta/v1/characters`: the upstream's character, to cite in delta prompts. */
export class CharacterView {
  @ApiProperty({ example: 'char_…' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'Unix seconds.', type: 'integer' })
  created_at: number;
}
