import type { IntelKind } from '@footprint/domain';
import type { QueryKind } from '../../providers/types.ts';

/**
 * Every kind of paid search: the phone, e-mail and detail lookups, the corporate and verification
 * searches, and the leak search. Stored in `lookups.kind`; the one name the searches module uses, to
 * be replaced by the domain's search kind when there is one.
 */
export type PaidKind = QueryKind | IntelKind | 'leak';
