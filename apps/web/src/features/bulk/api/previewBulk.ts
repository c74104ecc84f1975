import type { BulkPreview, BulkType } from '@footprint/domain';
import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api.ts';

/** What the form sends: a pasted list as JSON, or an uploaded file as multipart/form-data. */
export type BulkInput =
  | { source: 'paste'; type: BulkType; values: string[]; caseReference?: string | undefined }
  | { source: 'file'; type: BulkType; file: File; caseReference?: string | undefined };

/** The body of a preview or start call; exported for the unit tests. */
export function bodyOf(input: BulkInput): unknown {
  if (input.source === 'paste') {
    return {
      type: input.type,
      values: input.values,
      ...(input.caseReference ? { case_reference: input.caseReference } : {}),
    };
  }
  const form = new FormData();
  form.append('type', input.type);
  if (input.caseReference) form.append('case_reference', input.caseReference);
  // The file goes last: a multipart reader may stop at the file and read the fields before it only.
  form.append('file', input.file, input.file.name);
  return form;
}

/** POST /api/bulk/preview: what the list would do and cost; nothing is charged or stored. */
export const usePreviewBulk = () =>
  useMutation({
    mutationFn: (input: BulkInput) =>
      request<BulkPreview>('/api/bulk/preview', { method: 'POST', body: bodyOf(input) }),
  });
