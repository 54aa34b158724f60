/**
 * What worker-thread mode (`LodSet.setThreads(n)`, n > 1) needs from the runtime, checked where an
 * app calls it: Node's `node:worker_threads` (looked up at run time, never imported: the core must
 * load in browsers and bundlers) and `SharedArrayBuffer`; and the threaded frames' view limit.
 * The mode itself (threadMode.ts and drivers/threads.ts) is loaded by a dynamic `import()` only
 * once an app asks for threads, so this is all of it that a browser bundle carries.
 *
 * @module
 */

/** Maximum number of views in threaded mode (more: the frame runs on the calling thread). */
export const MAX_THREADED_VIEWS = 16;

/** Node's built-in module `id` where there is one (`process.getBuiltinModule`, Node ≥ 20.16), else undefined. */
export function nodeBuiltin<T>(id: string): T | undefined {
  const getBuiltin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  return typeof getBuiltin === 'function' ? getBuiltin(id) as T | undefined : undefined;
}

/**
 * Node's `node:worker_threads` module, or a RangeError saying what is missing (browsers and other
 * runtimes have no worker threads of this kind; threaded frames need shared memory).
 */
export function workerThreadsModule<T extends { Worker?: unknown }>(): T & { Worker: NonNullable<T['Worker']> } {
  const module = nodeBuiltin<T>('node:worker_threads');
  if (!module?.Worker) throw new RangeError('LodSet.setThreads: worker threads need Node.js ≥ 20.16 (node:worker_threads)');
  if (typeof SharedArrayBuffer !== 'function') throw new RangeError('LodSet.setThreads: SharedArrayBuffer is not available');
  return module as T & { Worker: NonNullable<T['Worker']> };
}
