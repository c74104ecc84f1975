import type { ReviewItem, ReviewVerdict } from '@footprint/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/**
 * Sampled review: the caller's queue (GET /api/reviews?status=open|done, searches of the people they
 * supervise), their own drawn searches (GET /api/reviews/mine) and a verdict (POST /api/reviews/{id}).
 */

export type ReviewList = 'open' | 'done' | 'mine';

export const reviewsKey = ['reviews'] as const;

export function listReviews(list: ReviewList, signal?: AbortSignal): Promise<{ data: ReviewItem[] }> {
  return list === 'mine'
    ? api.get<{ data: ReviewItem[] }>('/api/reviews/mine', { signal })
    : api.get<{ data: ReviewItem[] }>('/api/reviews', { query: { status: list }, signal });
}

export function useReviews(list: ReviewList, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [...reviewsKey, list],
    queryFn: ({ signal }) => listReviews(list, signal),
    enabled: options.enabled ?? true,
  });
}

export interface VerdictInput {
  lookupId: string;
  verdict: ReviewVerdict;
  note?: string;
}

/** Records a verdict; every list is read again from the server afterwards (nothing is guessed). */
export function useReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ lookupId, verdict, note }: VerdictInput) =>
      api.post<ReviewItem>(`/api/reviews/${encodeURIComponent(lookupId)}`, {
        verdict,
        ...(note ? { note } : {}),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reviewsKey }),
  });
}
