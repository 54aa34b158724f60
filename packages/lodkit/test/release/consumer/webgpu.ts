// A downstream WebGPU project's view of lodkit: the GPU entries from the built .d.ts files.
import * as webgpu from 'lodkit/webgpu';
import * as threeWebgpu from 'lodkit/three/webgpu';

export const entries: [typeof webgpu, typeof threeWebgpu] = [webgpu, threeWebgpu];
export type Selector = webgpu.GpuLodSelector;
export const gpuDevice = (s: Selector): GPUDevice => s.device;
