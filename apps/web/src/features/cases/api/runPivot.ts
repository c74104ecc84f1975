import type { Pivot } from '@footprint/domain';
import { request } from '../../../lib/api.ts';

/** A pivot's paid search (its path, method and input from `pivotOf`), filed under the case's reference. */
export const runPivot = (pivot: Pivot) =>
  request<{ credits?: unknown }>(pivot.path, {
    method: pivot.method,
    ...(pivot.query ? { query: pivot.query } : {}),
    ...(pivot.body ? { body: pivot.body } : {}),
  });
