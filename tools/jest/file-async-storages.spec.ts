import type { AsyncLocalStorage as NodeAsyncLocalStorage } from 'node:async_hooks';

type AsyncHooks = { AsyncLocalStorage: typeof NodeAsyncLocalStorage };

describe('the async storages of a test file', () => {
  // The process's own node:async_hooks, which the module patches: loaded afresh, it wraps the class the
  // runtime of this worker already wrapped, and the wrapper is taken off again after the test.
  const asyncHooks = jest.requireActual<AsyncHooks>('node:async_hooks');
  let disableFileStorages: () => void;

  beforeAll(() => {
    ({ disableFileStorages } = jest.requireActual<{ disableFileStorages(): void }>('./file-async-storages'));
  });
  afterAll(() => {
    asyncHooks.AsyncLocalStorage = Object.getPrototypeOf(
      asyncHooks.AsyncLocalStorage,
    ) as AsyncHooks['AsyncLocalStorage'];
  });

  it('disables, at the end of the file, each storage the file made, and only those', async () => {
    const ofTheFile = new asyncHooks.AsyncLocalStorage<string>();
    ofTheFile.enterWith('in a test');
    await Promise.resolve();
    expect(ofTheFile.getStore()).toBe('in a test');
    disableFileStorages();
    expect(ofTheFile.getStore()).toBeUndefined();

    const ofTheNextFile = new asyncHooks.AsyncLocalStorage<string>();
    ofTheNextFile.enterWith('next');
    expect(ofTheNextFile.getStore()).toBe('next');
    // A storage of an ended file still works when used again (run enables it again).
    expect(ofTheFile.run('again', () => ofTheFile.getStore())).toBe('again');
    disableFileStorages();
    expect(ofTheNextFile.getStore()).toBeUndefined();
  });
});
