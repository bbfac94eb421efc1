/** The address policy for URLs a client gives that an upstream fetches (an asset's URL): a PublicUrlCheck. */
export const PUBLIC_URL_CHECK = Symbol('PUBLIC_URL_CHECK');
