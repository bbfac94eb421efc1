import { Inject, Injectable } from '@nestjs/common';
import { VIDEO_REQUEST_LIMITS } from '@gateway/contracts';
import { SafeFetchError, type SafeFetcher } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { ForwardedUrls } from '../../../../pipeline/forwarded-urls';
import { SAFE_FETCHER } from '../../../../platform/infrastructure/tokens';
import { discardBody } from '../../../../tasks/content/opened-content';

/** The least an answer can send: enough to know where the URL leads, nothing of the file. */
const FIRST_BYTE = 'bytes=0-0';

/**
 * An asset's URL, before the control plane is asked to upload it (docs/urls.md). The URL is handed on
 * as given, so it passes the policy of forwarded URLs; and the gateway follows it itself through the
 * SSRF-safe fetcher, which resolves each host once and checks every redirect hop, so that a public
 * URL redirecting to a private address is refused too (the first hop alone proves nothing). Only the
 * first byte is asked for and the connection is then closed. Any refusal is the client's 400 on `URL`.
 */
@Injectable()
export class AssetUrlCheck {
  constructor(
    private readonly forwardedUrls: ForwardedUrls,
    @Inject(SAFE_FETCHER) private readonly fetcher: SafeFetcher,
  ) {}

  async assertPublic(url: string): Promise<void> {
    if (url.length > VIDEO_REQUEST_LIMITS.urlLength) {
      throw GatewayError.invalidRequest(
        `URL must be at most ${VIDEO_REQUEST_LIMITS.urlLength} characters.`,
        'URL',
      );
    }
    this.forwardedUrls.check(url, 'URL');
    try {
      const response = await this.fetcher.fetch(url, { headers: { range: FIRST_BYTE } });
      await discardBody(response.body);
    } catch (error) {
      if (!(error instanceof SafeFetchError)) throw error;
      throw GatewayError.invalidRequest(
        `URL must be a public http(s) URL the upstream can fetch: ${error.message}.`,
        'URL',
      );
    }
  }
}
