/**
 * The rules of the 'RC Details', 'UPI Details' and 'Challan Details' modals (spec §2.5), written once
 * for the modals and for the PDFs of the same records.
 */

/** Values the modals hide: empty, 'n/a' / 'na' in any case, and the strings 'null' and 'undefined'. */
export const DETAIL_HIDDEN_VALUES: ReadonlySet<string> = new Set(['', 'n/a', 'na', 'null', 'undefined']);

/** Keys the modals hide: the vendor's request id says nothing about the subject. */
export const DETAIL_HIDDEN_KEYS: ReadonlySet<string> = new Set(['client_id']);

/** True for a string the modals hide once its white space is folded. */
export const isHiddenDetailString = (value: string): boolean =>
  DETAIL_HIDDEN_VALUES.has(value.replace(/\s+/g, ' ').trim().toLowerCase());

const ACRONYMS = new Set([
  'rc',
  'upi',
  'id',
  'ifsc',
  'pan',
  'dob',
  'url',
  'pucc',
  'imsi',
  'msisdn',
  'gst',
  'rto',
  'vpa',
  'ip',
  'noc',
  'mv',
]);

/** 'owner_name' → 'Owner Name', 'pucc_upto' → 'PUCC Upto', 'fullName' → 'Full Name'. */
export function detailLabel(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) =>
      ACRONYMS.has(word.toLowerCase())
        ? word.toUpperCase()
        : word[0]!.toUpperCase() + word.slice(1).toLowerCase(),
    )
    .join(' ');
}
