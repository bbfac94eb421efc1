/**
 * Rules of the native generation route that name models, kept with the provider whose models they
 * are and reached by the gateway through the registry: the kappa image models' size tiers.
 */
export { applyKappaImageSizeRule, type KappaImageSizeRuleResult } from '@gateway/providers-kappa';
