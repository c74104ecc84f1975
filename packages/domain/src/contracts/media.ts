import { z } from 'zod';
import { fileDownload } from './common.ts';

/**
 * The media proxy: pictures (avatars, profile photos, breach logos) and map tiles reach the browser
 * through the product's own server, so no outside host learns what an investigator is looking at.
 */

/** GET /api/media?url=…: the remote picture to fetch (http or https, on the deployment's allow-list). */
export const mediaQuery = z.object({
  url: z.url({ protocol: /^https?$/ }).max(2048),
});

/** GET /api/media and GET /api/map/tiles/:z/:x/:y: the picture, never interpreted as a document. */
export const mediaImageResponse = fileDownload(
  'image/*',
  'The picture as the upstream host sent it (an image type only), cached by the server. ' +
    'It carries `Content-Security-Policy: sandbox` and `X-Content-Type-Options: nosniff`.',
);

/** GET /api/map: whether the deployment has a tile server, and the credit line its tiles need. */
export const mapConfigResponse = z.object({
  tiles: z.boolean(),
  attribution: z.string().nullable(),
  max_zoom: z.number().int(),
});

/** GET /api/map/tiles/:z/:x/:y: one tile of the operator's tile server (Web Mercator, z/x/y). */
export const mapTileParams = z.object({
  z: z.coerce.number().int().min(0).max(22),
  x: z.coerce.number().int().min(0),
  y: z.coerce.number().int().min(0),
});

export type MapConfig = z.infer<typeof mapConfigResponse>;
