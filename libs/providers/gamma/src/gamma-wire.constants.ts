/** The gamma AIGC task API's fixed words (upstreams.md §5.1, §5.4, §5.5). */
export const GAMMA_API_VERSION = '2018-07-17';
export const GAMMA_CREATE_ACTION = 'CreateAigcVideoTask';
export const GAMMA_DESCRIBE_ACTION = 'DescribeTaskDetail';
/** `ModelName` of this family; other names select other families hosted by the same API. */
export const GAMMA_MODEL_NAME = 'Gamma';
/** Every call's content type, signed as written (§5.2). */
export const GAMMA_CONTENT_TYPE = 'application/json; charset=utf-8';
