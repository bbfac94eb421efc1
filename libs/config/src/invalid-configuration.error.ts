/** Thrown once at boot with every problem found, so an operator fixes them all in one go. */
export class InvalidConfigurationError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
    this.name = 'InvalidConfigurationError';
  }
}
