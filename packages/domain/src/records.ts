/**
 * Reading untrusted JSON: upstream answers, stored results, request bodies. One guard for "a plain
 * object whose fields can be read", used by the web, the server and the domain alike.
 */

/** True for an object that is neither null nor an array (a JSON object, once parsed). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
