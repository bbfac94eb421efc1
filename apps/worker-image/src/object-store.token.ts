/** The object store whose expired files worker-image removes (the gateway's, through the same configuration). */
export const OBJECT_STORE = Symbol('OBJECT_STORE');
