/** A report call answered 2xx with something other than a PDF (an HTML error page, JSON) has failed. */
export function expectPdf(blob: Blob): Blob {
  if (!blob.type.includes('pdf')) throw new Error(`Expected a PDF, got ${blob.type || 'no content type'}.`);
  return blob;
}
