import { NestedField, NestedListField } from '../nested-field.decorator';
import { ValidateObjectRule } from '../rule.decorator';
import { IntegerField, StringField } from '../scalar-field.decorator';

/** Small DTOs using every validation decorator kind, for the specs of the validation folder. */
export class LeafDto {
  @IntegerField({ description: 'A count.', min: 0 })
  count: number;
}

@ValidateObjectRule('evenLeaves', (tree) =>
  Array.isArray(tree['leaves']) && tree['leaves'].length % 2 === 1
    ? 'must have an even number of leaves'
    : undefined,
)
export class TreeDto {
  @StringField({ description: 'A name.', nonEmpty: true })
  name: string;

  @NestedListField(() => LeafDto, { description: 'Leaves.', optional: true })
  leaves?: LeafDto[];

  @NestedField(() => LeafDto, { description: 'The root leaf.', optional: true, nullable: true })
  root?: LeafDto | null;
}
