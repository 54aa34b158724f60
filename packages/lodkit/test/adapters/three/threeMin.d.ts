// The `three-min` devDependency is three r160 (the declared peer minimum) under another name; its
// API is a subset of the current typings, close enough for the tests that use it.
declare module 'three-min' {
  export * from 'three';
}
