import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageSize } from 'image-size';
import OpenAI from 'openai';
import { PNG } from 'pngjs';
import type { GatewayHarness } from './gateway-harness';

/** The image families of the compat channel type (upstreams.md §2.3). */
export const COMPAT_IMAGE_MODELS = ['img-1', 'img-2', 'img-2-pro', 'draw-2', 'draw-3', 'zeta-4-2-image'];

/** Micros per image of every test image model, whatever the tier. */
export const IMAGE_PRICE_MICROS = 40_000n;

export interface ImageDemo {
  key: string;
  keyId: string;
  accountId: string;
  channelId: string;
}

/** Harness settings for image tests: the object store in a directory of its own. */
export function imageHarnessEnv(): Record<string, string> {
  return { OBJECT_STORE_DIR: mkdtempSync(join(tmpdir(), 'gw-images-')) };
}

/** Prices (one per image, any tier), a compat channel offering the image families, an account and a key. */
export async function seedImageDemo(
  harness: GatewayHarness,
  creditMicros = 1_000_000_000n,
  channel: Record<string, unknown> = {},
): Promise<ImageDemo> {
  await harness.adminOk('PUT', '/admin/prices', {
    prices: COMPAT_IMAGE_MODELS.map((model) => ({
      model,
      perImage: { default: IMAGE_PRICE_MICROS.toString() },
    })),
  });
  const channelId = await harness.createChannel({
    type: 'compat',
    name: `compat-images-${randomBytes(3).toString('hex')}`,
    secret: 'sim-compat-key',
    models: COMPAT_IMAGE_MODELS.map((model) => ({ model })),
    ...channel,
  });
  const accountId = await harness.createAccount(creditMicros);
  const { key, id } = await harness.createKey(accountId);
  return { key, keyId: id, accountId, channelId };
}

/** The official client, pointed at a gateway instance. */
export function openAiClient(baseUrl: string, key: string): OpenAI {
  return new OpenAI({ apiKey: key, baseURL: `${baseUrl}/v1`, maxRetries: 0 });
}

/** A PNG of the given size; with `transparent`, every pixel is transparent (a mask that frees all). */
export function pngOf(width: number, height: number, transparent = false): Buffer {
  const png = new PNG({ width, height });
  for (let offset = 0; offset < png.data.length; offset += 4) {
    png.data[offset] = 200;
    png.data[offset + 1] = 80;
    png.data[offset + 2] = 40;
    png.data[offset + 3] = transparent ? 0 : 255;
  }
  // Fast settings: the default filtering and compression take seconds for a 1024x1024 image.
  return PNG.sync.write(png, { deflateLevel: 1, filterType: 0 });
}

/** Downloads a URL and returns the image's dimensions and content type. */
export async function downloadedImage(
  url: string,
): Promise<{ width: number; height: number; contentType: string }> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  const { width, height } = imageSize(new Uint8Array(await response.arrayBuffer()));
  return { width, height, contentType: response.headers.get('content-type') ?? '' };
}

export function base64ImageSize(b64: string): { width: number; height: number } {
  const { width, height } = imageSize(Buffer.from(b64, 'base64'));
  return { width, height };
}
