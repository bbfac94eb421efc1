import { EnumField, StringField } from '../validation/scalar-field.decorator';
import { NestedListField } from '../validation/nested-field.decorator';
import { CONTENT_ROLES, ContentRole } from './native-values.constants';
import { PartDto } from './part.dto';

/** One conversation item. */
export class ContentDto {
  @EnumField(CONTENT_ROLES, { description: 'Who wrote this item; absent means user.', optional: true })
  role?: ContentRole;

  @NestedListField(() => PartDto, { description: 'The pieces of this item.', minItems: 1 })
  parts: PartDto[];
}

/** The system prompt: parts only; a role, when sent, is not used. */
export class SystemInstructionDto {
  @StringField({ description: 'Ignored.', optional: true })
  role?: string;

  @NestedListField(() => PartDto, { description: 'The pieces of the system prompt.', minItems: 1 })
  parts: PartDto[];
}
