/** The `Retry-After` a query of an unfinished task carries (TaskPollHints), for the OpenAPI document. */
export const RETRY_AFTER_HEADER_DOC = {
  'Retry-After': {
    description:
      'Only while the task is unfinished: whole seconds (at least 1) until the platform’s next poll of the task.',
    schema: { type: 'integer', minimum: 1 },
  },
} as const;
