/** Level colours of the first-hour app, finest first (shared by main.ts and firstHour.full.test.ts). */
export const SCREEN_SIZE_COLOURS = ['#ff0000', '#00ff00', '#0000ff'] as const;
export const INSTANCED_COLOURS = ['#ffff00', '#ff00ff', '#00ffff'] as const;
export const GLTF_COLOURS = ['#ff8000', '#ffffff', '#8000ff', '#808080', '#804000', '#008080'] as const;
/** The page's canvas, in CSS and device pixels (device scale factor 1). */
export const WIDTH = 960, HEIGHT = 540;
