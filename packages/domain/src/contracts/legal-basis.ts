import { z } from 'zod';
import { LEGAL_BASIS_KINDS } from '../cases/legal-basis.ts';

/** A legal basis as answered (domain `LegalBasis`): a case's, or one a search stated itself. */
export const legalBasisObject = z
  .object({
    kind: z.enum(LEGAL_BASIS_KINDS),
    number: z
      .string()
      .describe("The reference made of its facts (an FIR's number, year, station and sections; …)."),
    purpose: z.string(),
    fields: z
      .record(z.string(), z.union([z.string(), z.number(), z.array(z.string())]))
      .optional()
      .describe(
        'The facts its kind asks for (domain LEGAL_BASIS_DECLARATIONS); absent on a basis from before kinds had facts.',
      ),
  })
  .meta({ id: 'LegalBasis' });
