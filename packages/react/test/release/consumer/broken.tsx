// Misuses the strict types must reject (pack.full.test.ts expects exactly these errors).
import { InstancedLOD, LodManager, ScreenSizeDetailed } from '@lodkit/react';

export const a = <ScreenSizeDetailed metric="pixelz" />;                  // not a metric
export const b = <LodManager policy="fastest">{null}</LodManager>;        // not a policy
export const c = <InstancedLOD thresholds={[40]} />;                       // levels missing
