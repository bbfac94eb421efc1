// Every AsyncLocalStorage a test file made, disabled when the file ends.
//
// node:async_hooks is one module for the whole worker process, shared by every test file's module
// registry; an enabled AsyncLocalStorage stays in its list of storages until disabled, and each one
// in that list runs on the creation of every promise and other async resource in the process (and
// adds a property to it). Jest's test runner (jest-circus) makes a new one for each test file and
// never disables it, so late files of a worker paid for every file before them.
// perf-machinery: jest-file-async-storages (docs/performance-machinery.md)
const asyncHooks = require('node:async_hooks');

const NativeStorage = asyncHooks.AsyncLocalStorage;
/** The storages made since the last disableFileStorages. */
let ofThisFile = [];

class FileScopedStorage extends NativeStorage {
  constructor(...args) {
    super(...args);
    ofThisFile.push(this);
  }
}
asyncHooks.AsyncLocalStorage = FileScopedStorage;

/** Disables what the file that ended made: nothing of it runs any more. */
function disableFileStorages() {
  for (const storage of ofThisFile) storage.disable();
  ofThisFile = [];
}

module.exports = { disableFileStorages };
