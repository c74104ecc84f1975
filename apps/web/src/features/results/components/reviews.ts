import { type MapsReview, messages } from '@footprint/domain';

/** A maps review with usable coordinates, numbered as on the map and in the list. */
export interface LocatedReview {
  number: number;
  name: string;
  address?: string;
  rating?: number;
  text?: string;
  publishedAt?: string;
  lat: number;
  lng: number;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.replace(/\s+/g, ' ').trim() : undefined;

function coordinate(value: unknown, limit: number): number | undefined {
  const n = typeof value === 'string' && value.trim() ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && Math.abs(n) <= limit ? n : undefined;
}

/** Reviews that can be placed on a map; the others have nothing to show under 'Locations'. */
export function locatedReviews(
  reviews: ReadonlyArray<MapsReview | null | undefined> | null | undefined,
): LocatedReview[] {
  const located: LocatedReview[] = [];
  for (const review of reviews ?? []) {
    const lat = coordinate(review?.latitude, 90);
    const lng = coordinate(review?.longitude, 180);
    if (lat === undefined || lng === undefined) continue;
    const rating =
      typeof review?.rating === 'number' && Number.isFinite(review.rating) ? review.rating : undefined;
    located.push({
      number: located.length + 1,
      name: text(review?.place_name) ?? text(review?.address) ?? messages.results.place(located.length + 1),
      address: text(review?.address),
      rating,
      text: text(review?.text),
      publishedAt: text(review?.published_at),
      lat,
      lng,
    });
  }
  return located;
}

export const formatCoordinates = (review: LocatedReview): string =>
  `${review.lat.toFixed(5)}, ${review.lng.toFixed(5)}`;
