/** What a case's evidence bundle says about itself: its manifest.json, file by file and search by search. */
import packageJson from '../../../package.json' with { type: 'json' };

/** What made the bundle, in its manifest. */
export const BUNDLE_GENERATOR = `Footprint ${packageJson.version}`;
/** The layout of manifest.json; raised when a field changes meaning. */
export const BUNDLE_FORMAT = 1;

/** One file of a bundle, as its manifest lists it. */
export interface BundleFile {
  path: string;
  sha256: string;
  bytes: number;
  generated_at: string;
  /** The registered report this file is (its id verifies at /api/reports/{id}/verify), if any. */
  report_id?: string;
}

/** One search of the case, as the manifest lists it. */
export interface BundleItem {
  n: number;
  lookup_id: string;
  kind: string;
  search: string;
  /** included: its files are in the bundle; purged: the retention purge removed its result, no files; no_result: it kept none (refunded). */
  status: 'included' | 'purged' | 'no_result';
  result: string | null;
  report: string | null;
  /** Why there is no report file beside the result. */
  report_note?: string;
}

export interface BundleManifest {
  format: number;
  generator: string;
  case: { id: string; reference: string; title: string };
  generated_at: string;
  generated_by: { name: string; email: string };
  files: BundleFile[];
  items: BundleItem[];
  note: string;
}
