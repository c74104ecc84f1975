/**
 * The answer of a paid search read with the OpenAPI-generated client: its documented successes are the
 * answer (200) and a hold for a supervisor's approval (202, a sensitive kind). Tests that expect the
 * answer say so here, and fail plainly on a hold.
 */
export function answered<T>(data: T | undefined): Exclude<T, { status: 'pending'; poll: string }> {
  if (!data || (typeof data === 'object' && 'poll' in (data as object))) {
    throw new Error(`the search was not answered: ${JSON.stringify(data)}`);
  }
  return data as Exclude<T, { status: 'pending'; poll: string }>;
}
