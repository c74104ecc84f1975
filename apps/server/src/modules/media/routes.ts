import { mapConfigResponse, mapTileParams, mediaImageResponse, mediaQuery } from '@footprint/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { mediaRefused, mediaUrlInvalid, notFound, tileInvalid } from '../../errors.ts';
import type { Guards } from '../../http/auth.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import { MediaError, type MediaFetcher, type MediaFile } from './fetcher.ts';

const tags = ['Media'];

/** A picture is data, never a document: no script, no plugin, no sniffing, even for SVG. */
const IMAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

const MAX_ZOOM = 19;

function sendImage(reply: FastifyReply, file: MediaFile) {
  return reply
    .header('content-type', file.contentType)
    .header('content-security-policy', IMAGE_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', 'inline')
    .header('cache-control', 'private, max-age=3600')
    .header('x-media-cache', file.cached ? 'hit' : 'miss')
    .send(file.body);
}

/** The fetcher's refusals keep their code and message; anything else is not a refusal. */
const asDomainError = (error: unknown): unknown =>
  error instanceof MediaError ? mediaRefused(error.code, error.message) : error;

/** `{z}/{x}/{y}` (and `{s}`, one subdomain) filled into the operator's template. */
export function tileUrlOf(template: string, z: number, x: number, y: number): string {
  return template
    .replaceAll('{z}', String(z))
    .replaceAll('{x}', String(x))
    .replaceAll('{y}', String(y))
    .replaceAll('{s}', 'a')
    .replaceAll('{r}', '');
}

/**
 * GET /api/media?url=… and the map's tiles: signed-in users only. Pictures come from the allow-listed
 * hosts; tiles from the operator's MAP_TILE_URL, and with none configured the tile route is a 404
 * and GET /api/map says there are no tiles (the map then draws its pins on a plain background).
 */
export function mediaRoutes(
  app: FastifyInstance,
  deps: {
    media: MediaFetcher;
    guards: Guards;
    map: { tileUrl: string | undefined; attribution: string | undefined };
  },
) {
  const preHandler = deps.guards.authenticate;
  const api = app.withTypeProvider<ContractTypeProvider>();

  api.get(
    '/api/media',
    {
      preHandler,
      schema: {
        summary: 'A remote picture, fetched and cached by the server',
        description:
          'Avatars, profile photos and breach logos from hosts on the MEDIA_HOSTS allow-list, so that ' +
          'the browser never asks an outside host. 400: no or a bad url; 403: a host off the allow-list ' +
          'or a private address; 413: too large; 415: not an image; 502/504: the host failed.',
        tags,
        querystring: mediaQuery,
        response: { 200: mediaImageResponse },
        refusals: {
          403: 'A host off the allow-list, or a private address.',
          413: 'The picture is larger than the server fetches.',
          415: 'The host answered something that is not an image.',
          502: 'The host failed, or redirected where the server does not follow.',
          504: 'The host did not answer in time.',
        },
      },
    },
    async (request, reply) => {
      const parsed = mediaQuery.safeParse(request.query ?? {});
      if (!parsed.success) throw mediaUrlInvalid();
      try {
        return sendImage(reply, await deps.media.get(parsed.data.url));
      } catch (error) {
        throw asDomainError(error);
      }
    },
  );

  api.get(
    '/api/map',
    {
      preHandler,
      schema: {
        summary: 'Whether the map has a tile background',
        description:
          'The tiles come from the operator-configured tile server (MAP_TILE_URL), through the server.',
        tags,
        response: { 200: mapConfigResponse },
      },
    },
    async () => ({
      tiles: deps.map.tileUrl !== undefined,
      attribution: deps.map.tileUrl ? (deps.map.attribution ?? null) : null,
      max_zoom: MAX_ZOOM,
    }),
  );

  api.get(
    '/api/map/tiles/:z/:x/:y',
    {
      preHandler,
      schema: {
        summary: 'One map tile of the configured tile server',
        tags,
        params: mapTileParams,
        response: { 200: mediaImageResponse },
      },
    },
    async (request, reply) => {
      const template = deps.map.tileUrl;
      if (!template) throw notFound('No map tile server is configured.');
      const parsed = mapTileParams.safeParse(request.params);
      const tile = parsed.success ? parsed.data : undefined;
      if (!tile || tile.z > MAX_ZOOM || tile.x >= 2 ** tile.z || tile.y >= 2 ** tile.z) {
        throw tileInvalid();
      }
      try {
        return sendImage(reply, await deps.media.getTrusted(tileUrlOf(template, tile.z, tile.x, tile.y)));
      } catch (error) {
        throw asDomainError(error);
      }
    },
  );
}
