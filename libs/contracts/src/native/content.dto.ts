import { EnumField, StringField } from '../validation/scalar-field.decorator';
import { NestedListField } from '../validation/nested-field.decorator';
import { CONTENT_ROLES, ContentRole } from './native-values.constants';
import { PartDto } from './part.dto';
import { TEXT_REQUEST_LIMITS } from '../validation/request-limits.constants';

const PARTS_LIMITS = { minItems: 1, maxItems: TEXT_REQUEST_LIMITS.partsPerItem };

/** One conversation item. */
export class ContentDto {
  @EnumField(CONTENT_ROLES, { description: 'Who wrote this item; absent means user.', optional: true })
  role?: ContentRole;

  @NestedListField(() => PartDto, { description: 'The pieces of this item.', ...PARTS_LIMITS })
  parts: PartDto[];
}

/** The system prompt: parts only; a role, when sent, is not used. */
export class SystemInstructionDto {
  @StringField({ description: 'Ignored.', optional: true, maxLength: TEXT_REQUEST_LIMITS.identifierLength })
  role?: string;

  @NestedListField(() => PartDto, { description: 'The pieces of the system prompt.', ...PARTS_LIMITS })
  parts: PartDto[];
}
