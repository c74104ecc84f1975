import { z } from 'zod';
import { noControl } from '../accountability.ts';
import { fieldMessages } from '../messages.ts';
import { requiredText } from '../validation.ts';

/**
 * The legal basis of a case: what allows its searches. Free text proved vague, so each kind names
 * the facts that let someone check it, and each fact is checked as it is entered:
 * - an FIR: the police station, its number and year, and the sections it was registered under (BNS,
 *   IT Act, …);
 * - a notice or order: the provision it was issued under (for example section 94 BNSS), the issuing
 *   authority, its reference and date;
 * - a complaint on the National Cybercrime Reporting Portal: its acknowledgement number;
 * - a preliminary enquiry: its reference and the officer conducting it;
 * - an editorial assignment (journalists): its reference.
 * The kinds warrant, complaint and court order came before these; cases that name them keep them
 * and print them, but a new legal basis is one of the kinds above.
 *
 * One declaration per kind (LEGAL_BASIS_DECLARATIONS): its label, its fields (the web form draws
 * them), and the one line printed on reports, bundles and audit rows (`legalBasisLine`).
 */

export const LEGAL_BASIS_KINDS = [
  'fir',
  'notice',
  'ncrp_complaint',
  'preliminary_enquiry',
  'editorial_assignment',
  'warrant',
  'complaint',
  'court_order',
] as const;
export type LegalBasisKind = (typeof LEGAL_BASIS_KINDS)[number];

/** The kinds a new legal basis is given as. */
export const CURRENT_LEGAL_BASIS_KINDS = [
  'fir',
  'notice',
  'ncrp_complaint',
  'preliminary_enquiry',
  'editorial_assignment',
] as const satisfies readonly LegalBasisKind[];
export type CurrentLegalBasisKind = (typeof CURRENT_LEGAL_BASIS_KINDS)[number];

export const LEGAL_BASIS_NUMBER_MAX_LENGTH = 100;
export const LEGAL_BASIS_PURPOSE_MAX_LENGTH = 500;
export const FIR_SECTIONS_MAX = 20;
/** The acts an FIR's sections are cited from, as written before the section number. */
export const FIR_ACTS = ['BNS', 'IT Act', 'BNSS', 'IPC', 'CrPC', 'NDPS Act', 'PMLA', 'POCSO Act'] as const;

/** One field a kind asks for. */
export interface LegalBasisField {
  name: string;
  label: string;
  hint: string;
  /** text: one line; year; date (YYYY-MM-DD); sections: a list, one per line. */
  type: 'text' | 'year' | 'date' | 'sections';
  example: string;
}

export interface LegalBasisDeclaration {
  label: string;
  fields: readonly LegalBasisField[];
}

const sectionPattern = new RegExp(
  `^(${FIR_ACTS.map((act) => act.replace(' ', '\\s+')).join('|')})\\s+\\d{1,3}[A-Z]{0,2}(\\(\\d{1,2}[A-Za-z]?\\))*(\\([a-z]\\))?$`,
);

export const LEGAL_BASIS_DECLARATIONS: Record<LegalBasisKind, LegalBasisDeclaration> = {
  fir: {
    label: 'FIR',
    fields: [
      {
        name: 'police_station',
        label: 'Police station',
        hint: 'Where the FIR was registered.',
        type: 'text',
        example: 'Kothrud',
      },
      { name: 'fir_number', label: 'FIR number', hint: 'Digits only.', type: 'text', example: '214' },
      { name: 'year', label: 'Year', hint: 'The year it was registered.', type: 'year', example: '2026' },
      {
        name: 'sections',
        label: 'Sections',
        hint: `One per line, with its act: ${FIR_ACTS.slice(0, 2).join(' or ')} (e.g. "BNS 318(4)", "IT Act 66D").`,
        type: 'sections',
        example: 'BNS 318(4)\nIT Act 66D',
      },
    ],
  },
  notice: {
    label: 'Notice or order',
    fields: [
      {
        name: 'provision',
        label: 'Issued under',
        hint: 'The section and act, e.g. "Section 94 BNSS".',
        type: 'text',
        example: 'Section 94 BNSS',
      },
      {
        name: 'authority',
        label: 'Issuing authority',
        hint: 'The officer or court that issued it.',
        type: 'text',
        example: 'SHO, Cyber Police Station, Pune',
      },
      {
        name: 'reference',
        label: 'Reference',
        hint: 'Its number or reference.',
        type: 'text',
        example: 'CPS/94/2026/17',
      },
      { name: 'date', label: 'Date', hint: 'The day it was issued.', type: 'date', example: '2026-11-20' },
    ],
  },
  ncrp_complaint: {
    label: 'NCRP complaint',
    fields: [
      {
        name: 'acknowledgement_number',
        label: 'Acknowledgement number',
        hint: 'The 14-digit acknowledgement number of the complaint on cybercrime.gov.in.',
        type: 'text',
        example: '31504260012345',
      },
    ],
  },
  preliminary_enquiry: {
    label: 'Preliminary enquiry',
    fields: [
      {
        name: 'reference',
        label: 'Enquiry reference',
        hint: 'The reference of the enquiry.',
        type: 'text',
        example: 'PE-12/2026',
      },
      {
        name: 'officer',
        label: 'Enquiry officer',
        hint: 'The officer conducting it: rank and name.',
        type: 'text',
        example: 'SI R. Kulkarni',
      },
    ],
  },
  editorial_assignment: {
    label: 'Editorial assignment',
    fields: [
      {
        name: 'number',
        label: 'Assignment reference',
        hint: 'As your editor recorded it.',
        type: 'text',
        example: 'DESK-2026-118',
      },
    ],
  },
  warrant: {
    label: 'Warrant',
    fields: [{ name: 'number', label: 'Number', hint: '', type: 'text', example: '' }],
  },
  complaint: {
    label: 'Complaint',
    fields: [{ name: 'number', label: 'Number', hint: '', type: 'text', example: '' }],
  },
  court_order: {
    label: 'Court order',
    fields: [{ name: 'number', label: 'Number', hint: '', type: 'text', example: '' }],
  },
};

export const LEGAL_BASIS_LABELS: Record<LegalBasisKind, string> = Object.fromEntries(
  LEGAL_BASIS_KINDS.map((kind) => [kind, LEGAL_BASIS_DECLARATIONS[kind].label]),
) as Record<LegalBasisKind, string>;

export const legalBasisMessages = {
  json: 'The legal_basis field must be a legal basis written as JSON, for example {"kind":"ncrp_complaint","acknowledgement_number":"31201260012345","purpose":"Tracing a caller"}.',
  kind: `The legal basis kind must be one of: ${CURRENT_LEGAL_BASIS_KINDS.join(', ')}.`,
  control: (field: string) => `The ${field} may not contain control characters.`,
  firNumber: 'The FIR number must be digits only.',
  year: (max: number) => `The year must be from 1950 to ${max}.`,
  section: (value: string) =>
    `"${value}" is not a section of an act: write the act, then the section, e.g. "BNS 318(4)" or "IT Act 66D" (acts: ${FIR_ACTS.join(', ')}).`,
  sectionsRequired: 'Give at least one section the FIR was registered under.',
  sectionsMax: `Give at most ${FIR_SECTIONS_MAX} sections.`,
  provision: 'Name the section and the act it was issued under, e.g. "Section 94 BNSS".',
  date: 'The date must be a day (YYYY-MM-DD) from 2000-01-01 to today.',
  acknowledgement: 'The acknowledgement number is the 14 digits the portal gave the complaint.',
} as const;

const text = (field: string, max: number) =>
  requiredText(field, max)
    .trim()
    .min(1, { error: fieldMessages.required(field), abort: true })
    .regex(noControl, legalBasisMessages.control(field));

const purpose = text('purpose', LEGAL_BASIS_PURPOSE_MAX_LENGTH);
/** The latest calendar day anywhere (UTC+14): a notice dated today in India is taken before UTC's midnight. */
const latestToday = () => new Date(Date.now() + 14 * 3_600_000).toISOString().slice(0, 10);
const thisYear = () => new Date().getUTCFullYear();

const firInput = z.strictObject({
  kind: z.literal('fir'),
  police_station: text('police station', 120),
  fir_number: text('FIR number', 10).regex(/^\d{1,6}$/, legalBasisMessages.firNumber),
  year: z
    .union([z.number(), z.string().trim().min(1, fieldMessages.required('year'))], {
      error: fieldMessages.required('year'),
    })
    .pipe(
      z.coerce
        .number<string | number>({ error: legalBasisMessages.year(thisYear()) })
        .int(legalBasisMessages.year(thisYear())),
    )
    .refine((year) => year >= 1950 && year <= thisYear(), {
      error: () => legalBasisMessages.year(thisYear()),
    }),
  sections: z
    .array(
      text('section', 40).transform((section) => section.replace(/\s+/g, ' ')),
      {
        error: legalBasisMessages.sectionsRequired,
      },
    )
    .min(1, legalBasisMessages.sectionsRequired)
    .max(FIR_SECTIONS_MAX, legalBasisMessages.sectionsMax)
    .superRefine((sections, ctx) => {
      for (const section of sections) {
        if (!sectionPattern.test(section))
          ctx.addIssue({ code: 'custom', message: legalBasisMessages.section(section) });
      }
    }),
  purpose,
});

const noticeInput = z.strictObject({
  kind: z.literal('notice'),
  provision: text('provision', 60).regex(
    /^(section\s+)?\d{1,3}[A-Z]{0,2}(\(\d{1,2}\))*\s+(BNSS|BNS|IT Act|CrPC|PMLA|NDPS Act)$/i,
    legalBasisMessages.provision,
  ),
  authority: text('issuing authority', 200),
  reference: text('reference', LEGAL_BASIS_NUMBER_MAX_LENGTH),
  date: z
    .string({ error: legalBasisMessages.date })
    .regex(/^\d{4}-\d{2}-\d{2}$/, legalBasisMessages.date)
    .refine(
      (day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && day >= '2000-01-01' && day <= latestToday(),
      {
        error: () => legalBasisMessages.date,
      },
    ),
  purpose,
});

const ncrpInput = z.strictObject({
  kind: z.literal('ncrp_complaint'),
  acknowledgement_number: text('acknowledgement number', 20).regex(
    /^\d{14}$/,
    legalBasisMessages.acknowledgement,
  ),
  purpose,
});

const enquiryInput = z.strictObject({
  kind: z.literal('preliminary_enquiry'),
  reference: text('enquiry reference', LEGAL_BASIS_NUMBER_MAX_LENGTH),
  officer: text('enquiry officer', 120),
  purpose,
});

const editorialInput = z.strictObject({
  kind: z.literal('editorial_assignment'),
  number: text('assignment reference', LEGAL_BASIS_NUMBER_MAX_LENGTH),
  purpose,
});

/** The structured facts of a legal basis, as stored and answered (`LegalBasis.fields`). */
export type LegalBasisFields = Record<string, string | number | string[]>;

/** A legal basis as stored and answered: its kind, its facts, the one-line reference made of them, its purpose. */
export interface LegalBasis {
  kind: LegalBasisKind;
  /** The reference made of its facts ("214/2025, Kothrud police station, BNS 318(4); IT Act 66D"). */
  number: string;
  purpose: string;
  /** The facts its kind asks for; absent on a basis given before kinds had facts. */
  fields?: LegalBasisFields;
}

/** The one-line reference made of a kind's facts. */
function referenceOf(kind: CurrentLegalBasisKind, f: Record<string, unknown>): string {
  switch (kind) {
    case 'fir':
      return `${f.fir_number}/${f.year}, ${f.police_station} police station, ${(f.sections as string[]).join('; ')}`;
    case 'notice':
      return `under ${f.provision}, ${f.authority}, ref. ${f.reference} of ${f.date}`;
    case 'ncrp_complaint':
      return `acknowledgement ${f.acknowledgement_number}`;
    case 'preliminary_enquiry':
      return `${f.reference}, by ${f.officer}`;
    case 'editorial_assignment':
      return String(f.number);
  }
}

/** POST and PATCH /api/cases: a legal basis of one of the current kinds, each fact checked. */
export const legalBasisInput = z
  .discriminatedUnion('kind', [firInput, noticeInput, ncrpInput, enquiryInput, editorialInput], {
    error: legalBasisMessages.kind,
  })
  .meta({
    example: {
      kind: 'fir',
      police_station: 'Kothrud',
      fir_number: '214',
      year: 2026,
      sections: ['BNS 318(4)', 'IT Act 66D'],
      purpose: 'Tracing the caller of an extortion complaint',
    },
  })
  .transform(({ kind, purpose: why, ...fields }): LegalBasis => {
    const facts = fields as LegalBasisFields;
    return {
      kind,
      number: referenceOf(kind, facts).slice(0, 400),
      purpose: why,
      ...(kind === 'editorial_assignment' ? {} : { fields: facts }),
    };
  });
export type LegalBasisInput = z.input<typeof legalBasisInput>;

/**
 * The keys a legal basis adds to an audit row's details: its one line, its kind and its facts. A search
 * under a case writes its case's; a search that states its own writes that one in their place.
 */
export const legalBasisAuditDetails = (basis: LegalBasis): Record<string, unknown> => ({
  legal_basis: legalBasisLine(basis),
  legal_basis_kind: basis.kind,
  ...(basis.fields ? { legal_basis_fields: basis.fields } : {}),
});

/** The legal basis as one line: "FIR 214/2026, Kothrud police station, BNS 318(4): tracing the caller". */
export const legalBasisLine = (basis: Pick<LegalBasis, 'kind' | 'number' | 'purpose'>): string =>
  `${LEGAL_BASIS_LABELS[basis.kind]} ${basis.number}: ${basis.purpose}`;
