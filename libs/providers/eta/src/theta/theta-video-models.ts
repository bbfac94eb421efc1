/** The theta 1.x resolutions, written as the model-name suffix and on the wire (upstreams.md §6.2). */
export const THETA_1X_RESOLUTIONS = ['480p', '720p', '1080p'] as const;
export type Theta1xResolution = (typeof THETA_1X_RESOLUTIONS)[number];

/** A theta 1.x gateway model (`eta-theta-1-0-pro_720p`): the versioned upstream model and the resolution. */
export interface Theta1xModel {
  /** The gateway name without its suffix (`eta-theta-1-0-pro`). */
  base: string;
  version: '1.0' | '1.5';
  upstreamId: string;
  resolution: Theta1xResolution;
}

/** The bases the interface spec names and the versioned upstream id each maps to (§6.2). */
const THETA_1X_BASES: Readonly<Record<string, Pick<Theta1xModel, 'version' | 'upstreamId'>>> = {
  'eta-theta-1-0-pro': { version: '1.0', upstreamId: 'eta-theta-1-0-pro-250528' },
  'eta-theta-1-5-pro': { version: '1.5', upstreamId: 'eta-theta-1-5-pro-251215' },
};

const SUFFIXED_NAME = /^(.+)_(480p|720p|1080p)$/;

/** The 1.x model a gateway name stands for; undefined for any other name. */
export function theta1xModelOf(name: string): Theta1xModel | undefined {
  const match = SUFFIXED_NAME.exec(name);
  if (!match || !Object.hasOwn(THETA_1X_BASES, match[1])) return undefined;
  return { base: match[1], ...THETA_1X_BASES[match[1]], resolution: match[2] as Theta1xResolution };
}
