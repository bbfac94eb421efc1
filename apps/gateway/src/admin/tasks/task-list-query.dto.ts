import { EnumField, IsoDateField, NAME_RULES, StringField } from '@gateway/contracts';
import { TASK_STATUSES } from '@gateway/tasks';
import { PageQueryDto } from '../shared/page-query.dto';

/** Query of `GET /admin/tasks`. Its page: PageQueryDto. */
export class TaskListQueryDto extends PageQueryDto {
  @EnumField(TASK_STATUSES, { description: 'Only tasks in this status.', optional: true })
  status?: string;

  @StringField({
    description: 'Only tasks of this kind (video, music, image, asset …).',
    optional: true,
    ...NAME_RULES,
  })
  kind?: string;

  @StringField({ description: 'Only tasks of this model.', optional: true, ...NAME_RULES })
  model?: string;

  @StringField({ description: 'Only tasks charged to this account.', optional: true, ...NAME_RULES })
  accountId?: string;

  @StringField({ description: 'Only tasks on this channel.', optional: true, ...NAME_RULES })
  channelId?: string;

  @IsoDateField({ description: 'Only tasks created at or after this time (ISO 8601).', optional: true })
  createdAfter?: string;

  @IsoDateField({ description: 'Only tasks created before this time (ISO 8601).', optional: true })
  createdBefore?: string;

  @EnumField(['true', 'false'], {
    description:
      'true: only unfinished tasks past their deadline (deadline_at, set at creation from the family’s ' +
      'deadline setting, e.g. VIDEO_TASK_DEADLINE_MS / VIDEO_TASK_DEADLINES): no worker has ended them.',
    optional: true,
  })
  stuck?: string;
}
