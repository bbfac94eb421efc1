// quickstart --check: one text generation and two image generations (Base64 and URL) with the demo key.
import { imageSize } from 'image-size';

/** The image's `WxH type`, or throws when the bytes are not an image. */
function describeImage(bytes) {
  const { width, height, type } = imageSize(bytes);
  return `${width}x${height} ${type}`;
}

async function checkText({ gatewayUrl, key }) {
  const response = await fetch(`${gatewayUrl}/v1beta/models/kappa-2.0-flash:generateContent`, {
    method: 'POST',
    headers: { 'x-vendor-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }] }),
  });
  console.log(`demo request answered ${response.status}: ${await response.text()}`);
  return response.status === 200;
}

async function checkImage({ gatewayUrl, key }, model, responseFormat) {
  const response = await fetch(`${gatewayUrl}/v1/images/generations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, prompt: 'A lighthouse at dawn', response_format: responseFormat }),
  });
  const text = await response.text();
  const label = `image request ${model} (${responseFormat}) answered ${response.status}`;
  if (response.status !== 200) {
    console.log(`${label}: ${text}`);
    return false;
  }
  try {
    const item = JSON.parse(text).data[0];
    let bytes;
    if (responseFormat === 'url') {
      const file = await fetch(item.url);
      if (file.status !== 200) throw new Error(`${item.url} answered ${file.status}`);
      bytes = new Uint8Array(await file.arrayBuffer());
    } else bytes = new Uint8Array(Buffer.from(item.b64_json, 'base64'));
    console.log(`${label}: ${describeImage(bytes)}${item.url ? ` at ${item.url}` : ''}`);
    return true;
  } catch (error) {
    console.log(`${label} without an image (${error.message}): ${text.slice(0, 300)}`);
    return false;
  }
}

/** Runs every check (all of them, so the output shows each answer) and says whether all passed. */
export async function checkDemo(demo) {
  const results = [
    await checkText(demo),
    await checkImage(demo, 'img-1', 'b64_json'),
    await checkImage(demo, 'draw-2', 'url'),
  ];
  return results.every(Boolean);
}
