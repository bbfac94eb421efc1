/**
 * The video families whose wire continues a finished video (remix or extension): the gateway names them
 * when it refuses an extension or an edit elsewhere. Kept with the provider, reached through the registry.
 */
export { REMIX_FAMILIES as VIDEO_EXTENSION_FAMILIES } from '@gateway/providers-compat';
