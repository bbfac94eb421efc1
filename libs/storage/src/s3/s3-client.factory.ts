import { S3Client } from '@aws-sdk/client-s3';
import type { S3ObjectStoreConfig } from '@gateway/config';

export function createS3Client(config: S3ObjectStoreConfig): S3Client {
  return new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
    // Checksums only where the API demands them: the SDK's newer default adds one to every request,
    // which several S3-compatible servers refuse; the transport (TLS) already guards the bytes.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
