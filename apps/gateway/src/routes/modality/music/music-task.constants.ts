/** The prefix of the public ids of music tasks: a lookup of anything else is a 404 without a query. */
export const MUSIC_TASK_ID_PREFIX = 'music';
/** The row's kind: worker-video submits music tasks by their step jobs and polls them in batches. */
export const MUSIC_TASK_KIND = 'music';
/** The route every hold and log row of a music task names. */
export const MUSIC_SUBMIT_ROUTE = '/lambda/submit/{action}';
/** The channel type that serves the lambda family's routes. */
export const LAMBDA_CHANNEL_TYPE = 'lambda';
/** The family name whose deadline (VIDEO_TASK_DEADLINES) music tasks run under. */
export const MUSIC_DEADLINE_FAMILY = 'lambda';
