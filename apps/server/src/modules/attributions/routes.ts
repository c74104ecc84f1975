import { readFileSync } from 'node:fs';
import { type AttributionsResponse, attributionsResponse } from '@footprint/domain';
import type { FastifyInstance } from 'fastify';
import { loadCatalogue, SITE_LIST_LICENCES } from '../../providers/sites/catalogue.ts';

/** Where each list of the username catalogue lives. */
const LIST_HOMES = {
  sherlock: { work: 'Sherlock', url: 'https://github.com/sherlock-project/sherlock' },
  maigret: { work: 'Maigret', url: 'https://github.com/soxoj/maigret' },
} as const;

let answer: AttributionsResponse | undefined;

/** The notices, read once from the licence files shipped beside the catalogue. */
function attributions(): AttributionsResponse {
  if (answer) return answer;
  const catalogue = loadCatalogue();
  answer = {
    notices: SITE_LIST_LICENCES.map((licence) => ({
      ...LIST_HOMES[licence.list],
      part: 'The username lookup’s site catalogue (site addresses, check types and marker texts)',
      licence: 'MIT',
      copyright: licence.copyright,
      text: readFileSync(licence.path, 'utf8').trim(),
    })),
    catalogue: {
      sites: catalogue.sites.length,
      built_from: Object.fromEntries(
        Object.entries(catalogue.builtFrom).map(([list, { sites }]) => [list, sites]),
      ),
    },
  };
  return answer;
}

/** GET /api/attributions: public, as the product's notices are (the /attributions page reads it). */
export function attributionsRoutes(app: FastifyInstance): void {
  app.get(
    '/api/attributions',
    {
      schema: {
        summary: 'The notices of the third-party works the product ships',
        description:
          'Public. The username site catalogue is built from the MIT-licensed Sherlock and Maigret site lists; ' +
          'their notices and licence texts, as shipped with the server.',
        tags: ['System'],
        response: { 200: attributionsResponse },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return attributions();
    },
  );
}
