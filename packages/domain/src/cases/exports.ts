/**
 * The case exports, declared once: each format's name, file and media type. The server's export
 * endpoint (GET /api/cases/{id}/export/{format}), the evidence bundle (exports/) and the case page's
 * Export menu read this list; none of them names a format on its own.
 */
export interface CaseExportDeclaration {
  /** What the Export menu says. */
  readonly label: string;
  /** What it is for, in a line (the menu's description and the API's). */
  readonly description: string;
  /** The file's name after 'case-<reference>.' ('stix.json'). */
  readonly extension: string;
  readonly mediaType: string;
}

export const CASE_EXPORTS = {
  graphml: {
    label: 'Graph (GraphML)',
    description: 'The case, its searches and the entities they found as a graph, for Gephi, yEd or Maltego.',
    extension: 'graphml',
    mediaType: 'application/graphml+xml; charset=utf-8',
  },
  i2: {
    label: "i2 Analyst's Notebook (CSV)",
    description:
      "One row per link (the case, its searches, the entities found), for the importer of i2 Analyst's Notebook.",
    extension: 'i2.csv',
    mediaType: 'text/csv; charset=utf-8',
  },
  stix: {
    label: 'STIX 2.1 (JSON)',
    description:
      'The case as a STIX 2.1 bundle (a report, its searches as observed data, the observables, people and notes), for threat-intelligence platforms.',
    extension: 'stix.json',
    mediaType: 'application/stix+json;version=2.1',
  },
  'case-uco': {
    label: 'CASE/UCO 1.4 (JSON-LD)',
    description:
      'The case as CASE/UCO 1.4 JSON-LD: each search an investigative action with its officer, sources, results and legal basis; stored results with their SHA-256 and provenance; the audit trail as chain of custody.',
    extension: 'case-uco.jsonld',
    mediaType: 'application/ld+json',
  },
} as const satisfies Record<string, CaseExportDeclaration>;

export type CaseExportFormat = keyof typeof CASE_EXPORTS;
export const CASE_EXPORT_FORMATS = Object.keys(CASE_EXPORTS) as CaseExportFormat[];
