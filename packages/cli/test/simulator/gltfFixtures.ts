/**
 * Small glTF files for the simulator's glTF scene tests, built with @gltf-transform/core.
 *
 * `rockDocument`: one `MSFT_lod` group "Rock" of three UV spheres of radius 1 — 32 × 16, 16 × 8 and
 * 8 × 4 segments × rings, i.e. 2·s·(rings − 1) = 960, 224 and 48 triangles — on a node translated
 * to (5, 2, −3) and scaled by 2, so the file's bounding sphere is centre (5, 2, −3), radius 2.
 */
import { Document } from '@gltf-transform/core';
import { writeLodGroup } from 'lodkit/gltf';
import { addMesh, lodIO, uvSphere } from '../../../lodkit/test/adapters/gltf/fixtures.js';

/** Triangles of the rock's three levels (hand-computed, see the module comment). */
export const ROCK_TRIANGLES = [960, 224, 48];
/** World-space bounding sphere of the rock's level 0. */
export const ROCK_SPHERE = { center: [5, 2, -3], radius: 2 };

/** Options of {@link rockDocument}. */
export interface RockOptions {
  /** `MSFT_screencoverage` values (none when null). */
  coverage?: number[] | null;
  /** Object-space errors recorded per level. */
  errors?: number[];
  /** Name of the level-0 node. */
  name?: string;
  /** Add the group to this document instead of a new one (x offset of the node, to tell groups apart). */
  into?: Document;
  offsetX?: number;
}

/** A document with one rock LOD group (see the module comment). */
export function rockDocument(options: RockOptions = {}): Document {
  const document = options.into ?? new Document();
  if (document.getRoot().listBuffers().length === 0) document.createBuffer();
  const name = options.name ?? 'Rock';
  const tag = `${name}_${document.getRoot().listNodes().length}`;
  const high = document.createNode(name).setMesh(addMesh(document, `${tag}_high`, uvSphere(1, 32, 16)))
    .setTranslation([5 + (options.offsetX ?? 0), 2, -3]).setScale([2, 2, 2]);
  const mid = document.createNode(`${name}_mid`).setMesh(addMesh(document, `${tag}_mid`, uvSphere(1, 16, 8)));
  const low = document.createNode(`${name}_low`).setMesh(addMesh(document, `${tag}_low`, uvSphere(1, 8, 4)));
  const scene = document.getRoot().listScenes()[0] ?? document.createScene('scene');
  scene.addChild(high);
  const coverage = options.coverage === undefined ? [0.3, 0.05, 0.005] : options.coverage;
  writeLodGroup(document, {
    node: high, levels: [mid, low],
    ...(coverage ? { coverage } : {}),
    ...(options.errors ? { errors: options.errors } : {}),
  });
  return document;
}

/** GLB bytes of a document (MSFT_lod registered). */
export async function glbBytes(document: Document): Promise<Uint8Array> {
  return lodIO().writeBinary(document);
}
