import {
  CURRENT_LEGAL_BASIS_KINDS,
  type CurrentLegalBasisKind,
  LEGAL_BASIS_DECLARATIONS,
  type LegalBasis,
  type LegalBasisInput,
  legalBasisInput,
} from '@footprint/domain';

/**
 * A legal basis as its form holds it: the chosen kind (or none) and what each input holds, as typed
 * (sections one per line). `legalBasisInputOf` turns it into the flat body POST and PATCH /api/cases
 * take; `checkLegalBasis` checks it with the server's own schema and keys each message by its input.
 */
export interface LegalBasisDraft {
  kind: CurrentLegalBasisKind | '';
  /** By field name (the kind's fields and `purpose`). */
  values: Readonly<Record<string, string>>;
}

export const emptyLegalBasisDraft: LegalBasisDraft = { kind: '', values: {} };

export const isCurrentKind = (kind: string): kind is CurrentLegalBasisKind =>
  (CURRENT_LEGAL_BASIS_KINDS as readonly string[]).includes(kind);

/** The form's start for a stored basis: its kind and facts; an old kind leaves the kind to choose. */
export function draftOf(basis: LegalBasis | null | undefined): LegalBasisDraft {
  if (!basis) return emptyLegalBasisDraft;
  const values: Record<string, string> = { purpose: basis.purpose };
  if (!isCurrentKind(basis.kind)) return { kind: '', values };
  if (basis.kind === 'editorial_assignment') values.number = basis.number;
  for (const [name, value] of Object.entries(basis.fields ?? {}))
    values[name] = Array.isArray(value) ? value.join('\n') : String(value);
  return { kind: basis.kind, values };
}

/** The sections of a textarea: one per line, blank lines dropped. */
export const sectionsOf = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/** The flat request body of the draft (`{kind, …its fields, purpose}`), or null when no kind is chosen. */
export function legalBasisInputOf(draft: LegalBasisDraft): Record<string, unknown> | null {
  if (!draft.kind) return null;
  const input: Record<string, unknown> = { kind: draft.kind };
  for (const field of LEGAL_BASIS_DECLARATIONS[draft.kind].fields) {
    const value = draft.values[field.name] ?? '';
    if (field.type === 'sections') input[field.name] = sectionsOf(value);
    else if (field.type === 'year' && /^\d{1,4}$/.test(value.trim())) input[field.name] = Number(value);
    else input[field.name] = value;
  }
  input.purpose = draft.values.purpose ?? '';
  return input;
}

/** Messages by input name; `legal_basis` holds those of no one input. */
export type LegalBasisErrors = Readonly<Record<string, readonly string[]>>;

export type LegalBasisCheck =
  | { ok: true; input: LegalBasisInput | null }
  | { ok: false; errors: LegalBasisErrors };

/** Checks the draft as the server will (`legalBasisInput`), each message under the input it is about. */
export function checkLegalBasis(draft: LegalBasisDraft): LegalBasisCheck {
  const input = legalBasisInputOf(draft);
  if (!input) return { ok: true, input: null };
  const checked = legalBasisInput.safeParse(input);
  if (checked.success) return { ok: true, input: input as LegalBasisInput };
  const errors: Record<string, string[]> = {};
  for (const issue of checked.error.issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : 'legal_basis';
    const list = errors[key] ?? [];
    if (!list.includes(issue.message)) list.push(issue.message);
    errors[key] = list;
  }
  return { ok: false, errors };
}

/** The messages still standing after an edit: those of the inputs it changed go (all of them if the kind changed). */
export function errorsAfterEdit(
  errors: LegalBasisErrors,
  before: LegalBasisDraft,
  after: LegalBasisDraft,
): LegalBasisErrors {
  if (before.kind !== after.kind) return {};
  const kept: Record<string, readonly string[]> = {};
  for (const [name, list] of Object.entries(errors))
    if (name !== 'legal_basis' && before.values[name] === after.values[name]) kept[name] = list;
  return kept;
}
