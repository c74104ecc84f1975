const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML bodies and attribute values. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => entities[c] ?? c);
