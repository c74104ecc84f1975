/**
 * The renderer of every case export format declared in the domain (CASE_EXPORTS): one function from
 * what the case says (input.ts) to the file's text. The endpoint and the evidence bundle call these.
 */
import type { CaseExportFormat } from '@footprint/domain';
import { renderCaseUco } from './case-uco.ts';
import { renderGraphml } from './graphml.ts';
import { renderI2Csv } from './i2.ts';
import type { CaseExportInput } from './input.ts';
import { renderStix } from './stix.ts';

export type CaseExportRenderer = (input: CaseExportInput) => string;

export const CASE_EXPORT_RENDERERS: { readonly [F in CaseExportFormat]: CaseExportRenderer } = {
  graphml: renderGraphml,
  i2: renderI2Csv,
  stix: renderStix,
  'case-uco': renderCaseUco,
};
