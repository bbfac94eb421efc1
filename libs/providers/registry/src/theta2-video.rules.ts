/**
 * Rules of the theta 2.0 video route that name models and price them, kept with the eta provider and
 * reached by the gateway through the registry: the names `POST /v1/video/generations` serves, and the
 * output tokens a planned call is held for.
 */
export { estimateTheta2Tokens, isTheta2VideoModel } from '@gateway/providers-eta';
