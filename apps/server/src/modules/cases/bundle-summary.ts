/** The case summary PDF at the head of a bundle: the case as GET /api/cases/{id} answers it. */
import { type CaseDetail, ENTITY_LABELS, ENTITY_TYPES, legalBasisLine, searchLabel } from '@footprint/domain';
import type { UserRow } from '../../db/schema.ts';
import type { CaseSummaryJob } from '../reports/render/types.ts';

interface BundleSummaryEntity {
  value: string;
  sources: string[];
  searches: number;
  corroborated: boolean;
}

/** The summary's report job: entities grouped by type (the known types first, in their order). */
export function caseSummaryJob(
  detail: CaseDetail,
  user: UserRow,
  report: { reportId: string; generatedAt: string },
): CaseSummaryJob {
  const sandbox = detail.items.some((item) => item.sandbox);
  const byType = new Map<string, BundleSummaryEntity[]>();
  for (const entity of detail.entities) {
    const list = byType.get(entity.type) ?? [];
    list.push({
      value: entity.value,
      sources: entity.sources,
      searches: entity.items.length,
      corroborated: entity.corroborated,
    });
    byType.set(entity.type, list);
  }
  const order = [...ENTITY_TYPES, ...[...byType.keys()].filter((t) => !ENTITY_TYPES.includes(t as never))];
  return {
    template: 'case',
    reportId: report.reportId,
    generatedAt: report.generatedAt,
    account: { name: user.name, email: user.email },
    sandbox,
    case: {
      id: detail.id,
      title: detail.title,
      reference: detail.reference,
      status: detail.status,
      legalBasis: detail.legal_basis ? legalBasisLine(detail.legal_basis) : null,
      owner: detail.owner,
      createdAt: detail.created_at,
    },
    members: detail.members.map((m) => ({ name: m.name, email: m.email, addedAt: m.added_at })),
    notes: detail.notes.map((n) => ({ author: n.author, body: n.body, createdAt: n.created_at })),
    searches: detail.items.map((item) => ({
      lookupId: item.lookup_id,
      label: searchLabel(item),
      createdAt: item.created_at,
      status: item.status,
      kept: item.result_available,
    })),
    entities: order
      .filter((type) => byType.has(type))
      .map((type) => ({
        type: (ENTITY_LABELS as Record<string, string>)[type] ?? type,
        items: byType.get(type)!,
      })),
    timeline: detail.timeline.map(({ at, label, source }) => ({ at, label, source })),
  };
}
