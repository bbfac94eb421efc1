import type * as Undici from 'undici';

// perf-machinery: undici-dispatchers (docs/performance-machinery.md)
/*
 * undici's entry point also builds fetch, WebSocket, EventSource, the cache stores and the mocks: 110
 * modules and about 3 MiB of heap that the gateway never uses (a public replica at idle held 131 MiB
 * of RSS with them, 122 without; docs/performance-analysis.md). The two dispatchers used here and
 * their request API are 31 modules. The entry point's one piece of wiring that they need, the request
 * methods on Dispatcher.prototype, is repeated here. The specs of both clients go through these
 * exports, so an undici release that moves these files fails them.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const dispatcherClass = require('undici/lib/dispatcher/dispatcher') as typeof Undici.Dispatcher;
Object.assign(dispatcherClass.prototype, require('undici/lib/api'));

export type Agent = Undici.Agent;
export const Agent = require('undici/lib/dispatcher/agent') as typeof Undici.Agent;
export type Client = Undici.Client;
export const Client = require('undici/lib/dispatcher/client') as typeof Undici.Client;
/* eslint-enable @typescript-eslint/no-require-imports */
