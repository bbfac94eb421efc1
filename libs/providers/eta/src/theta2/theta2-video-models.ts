/** A theta 2.0 model: the versioned upstream id and the resolutions it renders (upstreams.md §6.2). */
export interface Theta2Model {
  upstreamId: string;
  resolutions: readonly string[];
}

const STANDARD: Theta2Model = { upstreamId: 'eta-theta-2-0-260128', resolutions: ['480p', '720p', '1080p'] };
const FAST: Theta2Model = { upstreamId: 'eta-theta-2-0-fast-260128', resolutions: ['480p', '720p'] };

/**
 * The 2.0 names a client may ask for: the versioned ids, and the interface's compatible names where a
 * channel offers them (a channel lists the alias, mapped to the id it stands for, in its models).
 * `theta-2.0-pro` is the standard model; `theta-2.0-fast` and `theta-2.0-lite`, the lower tier, the
 * fast one: their rules are those of the model they stand for.
 */
const THETA_2_MODELS: Readonly<Record<string, Theta2Model>> = {
  'eta-theta-2-0-260128': STANDARD,
  'eta-theta-2-0-fast-260128': FAST,
  'theta-2.0-pro': STANDARD,
  'theta-2.0-fast': FAST,
  'theta-2.0-lite': FAST,
};

export function theta2ModelOf(name: string): Theta2Model | undefined {
  return Object.hasOwn(THETA_2_MODELS, name) ? THETA_2_MODELS[name] : undefined;
}

/** Whether a model name is a theta 2.0 model or one of its compatible names. */
export function isTheta2VideoModel(name: string): boolean {
  return theta2ModelOf(name) !== undefined;
}
