// A downstream project's view of lodkit: imports every public entry from the built .d.ts files.
import * as core from 'lodkit';
import * as gltf from 'lodkit/gltf';
import * as three from 'lodkit/three';

export const entries: [typeof core, typeof gltf, typeof three] = [core, gltf, three];
export const thresholds: core.LodThresholds = new core.LodThresholds({ metric: 'pixels', thresholds: [80, 20] });
export type Plugin = three.MSFTLodLoaderPlugin;
export type Groups = gltf.GltfLodGroup[];
