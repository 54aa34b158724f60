/**
 * `@lodkit/cli` (also `@lodkit/cli/simulator`): the scene format, the simulation loop, the built-in scenarios and the
 * reports behind `lodkit simulate`. A separate entry point from `lodkit` because it depends on zod
 * (scene validation) and, for the HTML report, on Node's `fs` and the `chart.js` package.
 *
 * @module
 */
export {
  formatJsonPath, parseScene, parseSceneText, SCENE_FORMAT_VERSION, sceneSchema, SceneValidationError,
  type CameraKeyframe, type Scene, type SceneInput, type ScenePolicy, type SceneProfile,
} from './sceneFormat.js';
export { CameraPath, slerp, type CameraSample } from './cameraPath.js';
export { compileScene, sampleMotion, type CompiledScene } from './compiledScene.js';
export { QualityReference } from './qualityReference.js';
export {
  selectPolicies, simulate, SIMULATE_DEFAULTS, simulationSize, SIMULATION_FORMAT, SIMULATION_FORMAT_VERSION,
  type FrameRecord, type PolicyResult, type PolicySummary, type SimulateOptions, type SimulationResult, type SimulationTimings,
} from './simulate.js';
export {
  BUILT_IN_SCENARIOS, builtInScene, builtInSceneInput, flightsimScene, forestScene, motogpScene, type BuiltInScenario,
} from './scenarios/index.js';
export { lcg } from './scenarios/random.js';
export { comparisonRows, formatComparisonTable, formatRunHeader, TABLE_COLUMNS } from './report/table.js';
export { loadChartJsSource, renderHtmlReport, REPORT_FILE, REPORT_JSON_FILE, reportFiles, writeHtmlReport } from './report/html.js';
export { GLTF_SCENE_DEFAULTS, GltfSceneError, sceneFromGltf, type GltfSceneOptions, type GltfSceneResult } from './gltfScene.js';
export { checkSimulationSize, estimateOutputChars, SIMULATE_LIMITS, sceneFrameCount, type SimulationSize } from './limits.js';
export {
  checkOutput, gltfResourcePaths, makeFolder, OutputError, removeFolders, writeFileAtomic, writeOutputs,
  type InputResource, type OutputFile, type OutputOptions, type WriteOutputsOptions,
} from './files.js';
