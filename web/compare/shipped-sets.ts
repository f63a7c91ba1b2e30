// The sets of runs the build ships besides the lessons' tables: the time machine's default
// points and the default compare link's measured runs (precompute.ts). Named once here, for
// vite.config.ts, which hands them to the lessons plugin, and for the test that holds the
// committed records (lessons/results/) to what the build asks for.
import type { PointSet } from '../lessons/precompute.ts';
import { TIME_MACHINE_SET, timeMachineKeys } from './timemachine-runs.ts';
import { COMPARE_SET, defaultCompareKeys } from './compare-points.ts';

export function otherShippedSets(): PointSet[] {
  return [
    { id: TIME_MACHINE_SET, keys: timeMachineKeys() },
    { id: COMPARE_SET, keys: defaultCompareKeys() },
  ];
}
