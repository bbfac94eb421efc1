import { BETA_SUBMIT_STORED_FIELDS, BetaGetResultDto, BetaSubmitTaskDto } from '@gateway/contracts';
import { BETA_GET_RESULT_ACTION, BETA_SUBMIT_ACTION } from '@gateway/dialects';
import { everyFaultRefused } from '../../../platform/http/body-validation.util';
import type { BodyChoice, BodyDeclaration } from '../../../platform/http/declared-body';
import { validTaskBody } from '../../../tasks/task-body.util';

/** A submission's body: the DTO, and the checks of what its task row stores. */
export const BETA_SUBMIT_BODY: BodyDeclaration<BetaSubmitTaskDto> = {
  dto: BetaSubmitTaskDto,
  validate: (dto, body) => validTaskBody(dto, body, BETA_SUBMIT_STORED_FIELDS),
};

/** A result query's body: the DTO alone (nothing of it is stored). */
export const BETA_RESULT_BODY: BodyDeclaration<BetaGetResultDto> = {
  dto: BetaGetResultDto,
  validate: (dto, body) => everyFaultRefused(dto, body),
};

/** The `/bt` body of each `Action` (upstreams.md §4.3, §4.4). */
export interface BetaActionBodies {
  [BETA_SUBMIT_ACTION]: BetaSubmitTaskDto;
  [BETA_GET_RESULT_ACTION]: BetaGetResultDto;
}

/** The `/bt` route's body, chosen by its `Action` query parameter. */
export const BETA_ACTION_BODIES: BodyChoice<BetaActionBodies> = {
  chosenBy: { query: 'Action' },
  bodies: { [BETA_SUBMIT_ACTION]: BETA_SUBMIT_BODY, [BETA_GET_RESULT_ACTION]: BETA_RESULT_BODY },
};
