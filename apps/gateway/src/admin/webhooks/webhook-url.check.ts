import type { GatewayConfig } from '@gateway/config';
import { checkFetchTarget } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { MAX_WEBHOOK_URL_LENGTH } from './webhook-endpoint.dto';

/** Time allowed to resolve an endpoint's host when it is registered. */
const RESOLVE_TIMEOUT_MS = 5_000;

/**
 * An endpoint URL is checked when it is registered as every delivery checks it again: http(s), its
 * host resolved, and no address private, loopback, link-local or metadata unless SSRF_ALLOW_HOSTS
 * allows it. A refusal is the operator's 400, which names the rule, never a 500.
 */
export async function assertDeliverableUrl(
  url: string,
  config: Pick<GatewayConfig, 'ssrfAllowHosts'>,
): Promise<void> {
  if (url.length > MAX_WEBHOOK_URL_LENGTH) {
    throw GatewayError.invalidRequest(`url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters.`, 'url');
  }
  try {
    const checked = await checkFetchTarget(url, {
      allowPrivateHosts: config.ssrfAllowHosts,
      timeoutMs: RESOLVE_TIMEOUT_MS,
    });
    if (checked.username || checked.password) throw new Error('credentials in a URL are not sent');
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'it cannot be reached';
    throw GatewayError.invalidRequest(`url is refused: ${reason}.`, 'url');
  }
}
