import { z } from 'zod';
import {
  corporateTypes,
  INTEL_TEXT_MAX,
  type IntelArea,
  type IntelField,
  type IntelType,
  verificationTypes,
} from '../intel/fields.ts';
import { PAN_PATTERN } from '../intel/validate.ts';
import { fileDownload, openObject } from './common.ts';

/**
 * Responses of POST /api/corporate-intelligence and POST /api/verification-id (request:
 * `intelRequestSchema`, parsed by the service so that refused attempts reach the audit trail).
 */

/** The JSON answer: the vendor's record under `data`. */
export const intelResponse = z
  .object({
    data: openObject("The vendor's record (its `data` object), as it came."),
    credits: z.number().int(),
    lookup_id: z.string(),
    sandbox: z.boolean(),
  })
  .meta({ id: 'IntelRecord' });

/** The credit report type answers a PDF, with the balance in X-Credits. */
export const intelPdfResponse = fileDownload(
  'application/pdf',
  'The credit report: the balance is in X-Credits, the ids in X-Lookup-Id, X-Report-Id, X-Report-Sha256.',
);

/** A demo value per field name for the sandbox (README, demo identities): the documented examples. */
const DEMO_VALUES: Record<string, string | boolean> = {
  id_number: '27AADCN4821K1ZC',
  year: '2024',
  mobile: '9876543210',
  mobile_number: '9876543210',
  phone: '9876543210',
  pan: 'BQZPD4821K',
  pan_number: 'BQZPD4821K',
  name: 'Rohan Deshmukh',
  gender: 'male',
  dl_number: 'MH1220110048219',
  dob: '1990-04-17',
  epic_number: 'KTW4821906',
  file_number: 'PN1064821906217',
  account_number: '50100482190612',
  ifsc: 'KCBX0PUN482',
  vehicle_number: 'MH12FP1234',
  uan: '100482190612',
};
const DEMO_BY_TYPE: Record<string, Record<string, string | boolean>> = {
  corporate_cin: { id_number: 'U72200MH2015PTC248219' },
  employment_history: { id_number: '100482190612' },
  employment: { phone: '9876543210' },
};

/** One field of `data` as JSON Schema sees it (the rules themselves are validate.ts's). */
function fieldSchema(t: IntelType, field: IntelField): z.ZodType {
  const described = <S extends z.ZodType>(schema: S) => schema.describe(field.label);
  switch (field.kind) {
    case 'checkbox':
      return described(t.checkboxWire === 'yn' ? z.enum(['Y', 'N']).or(z.boolean()) : z.boolean());
    case 'consent':
      return described(z.literal(true).or(z.literal('Y')));
    case 'mobile':
      return described(z.string().regex(/^\d{7,12}$/));
    case 'pan':
      return described(z.string().regex(PAN_PATTERN));
    case 'date':
      return described(z.string().meta({ format: 'date' }));
    case 'year':
    case 'gender':
      return described(z.enum((field.options ?? []).map((o) => o.value) as [string, ...string[]]));
    default:
      return described(z.string().max(field.maxLength ?? INTEL_TEXT_MAX));
  }
}

/** The `data` of one type: its fields, each optional where the form marks it so. */
function dataSchema(t: IntelType) {
  const shape: Record<string, z.ZodType> = {};
  for (const field of t.fields) {
    const schema = fieldSchema(t, field);
    const optional = field.optional || t.combinations || field.kind === 'checkbox';
    shape[field.name] = optional ? schema.optional() : schema;
  }
  const combos = t.combinations
    ? ` At least one of these combinations must be complete: ${t.combinations.map((c) => c.join(' + ')).join('; ')}.`
    : '';
  return z.strictObject(shape).describe(`The fields of ${t.label}.${combos}`);
}

/** A type's example request, with the sandbox's demo values. */
export function intelExample(t: IntelType): Record<string, unknown> {
  const data: Record<string, string | boolean> = {};
  const demo = DEMO_BY_TYPE[t.type];
  for (const field of t.fields) {
    if (field.kind === 'consent') data[field.name] = t.checkboxWire === 'yn' ? 'Y' : true;
    else if (field.kind === 'checkbox') data[field.name] = t.checkboxWire === 'yn' ? 'Y' : true;
    else if (demo) {
      if (demo[field.name] !== undefined) data[field.name] = demo[field.name]!;
    } else if (!field.optional && DEMO_VALUES[field.name] !== undefined) {
      data[field.name] = DEMO_VALUES[field.name]!;
    }
  }
  return { type: t.type, data, case_reference: 'CASE-2026-0042' };
}

/**
 * POST /api/corporate-intelligence and /api/verification-id as the document describes them: one
 * variant per type, told apart by `type`, each naming its `data` fields. Documentation only: the
 * service parses with `intelRequestSchema` and `validateIntel`, which answer 400 with `errors`.
 */
export function intelRequestDocument(area: IntelArea) {
  const types = area === 'corporate' ? corporateTypes : verificationTypes;
  const variants = types.map((t) =>
    z
      .strictObject({
        type: z.literal(t.type),
        data: dataSchema(t),
        case_reference: z
          .string()
          .max(100)
          .nullable()
          .optional()
          .describe('The case this search is filed under.'),
      })
      .meta({ title: t.label, examples: [intelExample(t)] }),
  );
  return z
    .discriminatedUnion('type', variants as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]])
    .meta({
      id: area === 'corporate' ? 'CorporateSearch' : 'VerificationSearch',
      description: `One ${area} search: \`type\` picks the search, \`data\` holds that type's fields.`,
    });
}
