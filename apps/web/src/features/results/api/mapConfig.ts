import type { MapConfig } from '@footprint/domain';
import { api } from '../../../lib/api.ts';

/** GET /api/map: whether the deployment has tiles; asked once per page load (a failure is asked again). */
let mapConfig: Promise<MapConfig> | undefined;
export const loadMapConfig = () => {
  mapConfig ??= api.get<MapConfig>('/api/map').catch((error: unknown) => {
    mapConfig = undefined;
    throw error;
  });
  return mapConfig;
};
