/**
 * The shared-memory protocol between the calling thread (threads.ts) and the worker threads
 * (threadWorker.ts): the layout of the parameter block, the results rows, the `ctrl` words of the
 * worker seam, and the arrays a worker is started with. Both sides import it, so the layout is
 * written once.
 *
 * @module
 */

/** Slots per view in the shared parameter block: 24 plane values, 8 view params, projection flag. */
export const VIEW_SLOTS = 34;
/**
 * Parameter block header: bias, hysteresis, minFrames, frame, cull, viewCount, metric mask, mode
 * (0 per object, 1 clusters), object or cluster count, objects or clusters per chunk.
 */
export const HEADER = 10;
/** Results per chunk: changes, totalCost, minimumCost, invalid, hidden, clusters culled, skipped, objects evaluated; then level counts. */
export const RESULT_HEAD = 8;
export { MAX_THREADED_VIEWS } from '../core/threadSupport.js';
/**
 * `ctrl` slots of the worker seam (`LodThreads.setWorkerSchedule`): the gate the workers pass
 * before every claim (0 open, 1 closed), hold claimed chunks (0/1), their release (0/1, reset each
 * frame), and the chunks the workers claimed in the live frame. Slot 0 is the frame sequence
 * (−1 ends the workers); slots 1 … 63 are unused (frames are claimed in chunks: done flags).
 */
export const GATE = 64, HOLD = 65, RELEASE = 66, WORKER_CLAIMS = 67;
/** Words of the `ctrl` array. */
export const CTRL_WORDS = 68;

/** Marks the `workerData` of a worker started by `LodThreads` (only such a worker runs the loop of threadWorker.ts). */
export const THREAD_WORKER_TAG = 'lodkit.threadWorker/1';

/** The shared `ClusterIndex` and `ClusterViews` arrays a worker reads (clustered frames). */
export interface ThreadClusterData {
  slotId: Uint32Array; workS: Float64Array; sp: Float32Array; profS: Uint16Array; flagsS: Uint8Array; forcedS: Uint8Array;
  levelsS: Uint8Array; blendS: Float32Array; start: Uint32Array; end: Uint32Array; profile: Uint16Array; bounds: Float64Array;
  live: Uint32Array; forcedCount: Uint32Array; state: Uint8Array; sizesS: Float32Array;
  /** ClusterViews: the view block, planes and metric parameters of up to {@link MAX_THREADED_VIEWS} views. */
  block: Float64Array; planes: Float64Array; kv: Float64Array;
  /** exactSizes (0/1), eyeMagnitude, sizes in slot order (0/1). */
  scalars: Float64Array;
}

/**
 * What a worker is started with (its `workerData`): the protocol arrays, then the set's shared
 * `FrameState` arrays, then the shared cluster arrays (null without clusters). Every typed array
 * here views a `SharedArrayBuffer`, so both sides see the same memory.
 */
export interface ThreadWorkerData {
  tag: typeof THREAD_WORKER_TAG;
  /** This worker's index, 1 … workerCount (the calling thread is 0). */
  index: number;
  ctrl: Int32Array; params: Float64Array;
  claim: Int32Array; done: Int32Array; chunkResults: Float64Array;
  spheres: Float32Array; profileIds: Uint16Array; flags: Uint8Array; forced: Uint8Array; levels: Uint8Array;
  blend: Float32Array; sizes: Float32Array; lastChange: Int32Array; changed: Uint32Array; work: Float64Array;
  stride: number; thresholds: Float32Array; blendThresholds: Float32Array; thresholdCount: Uint8Array;
  blendCount: Uint8Array; levelCount: Uint8Array; metricCode: Uint8Array; costs: Float64Array;
  lo: Uint8Array; hi: Uint8Array; thresholds4: Float32Array; blendThresholds4: Float32Array;
  bands: Float64Array; banded: Uint8Array; anyBands: boolean;
  clusters: ThreadClusterData | null;
}
