/**
 * Where the gateway serves stored files: outside /v1, whose routes all need a key (see the gateway's
 * StoredFilesController). Here, beside the store, so that the workers that write answers naming
 * stored files (worker-image's image jobs, their webhook events) write the gateway's URLs.
 */
export const STORED_FILES_PATH = '/files';

export function storedFileUrl(baseUrl: string, id: string): string {
  return `${baseUrl}${STORED_FILES_PATH}/${id}`;
}
