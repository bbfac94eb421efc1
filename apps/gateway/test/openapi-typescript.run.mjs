// openapi-typescript's programmatic API, run in a Node process of its own: Jest cannot load its
// ES-module dependencies. Reads an OpenAPI document on stdin, writes the generated types to stdout.
import { text } from 'node:stream/consumers';
import openapiTS, { astToString } from 'openapi-typescript';

const document = JSON.parse(await text(process.stdin));
process.stdout.write(astToString(await openapiTS(document)));
