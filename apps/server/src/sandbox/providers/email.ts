/**
 * E-mail sources (spec §3, GET /api/email). One generator per answer key; each takes the normalized
 * (lower-case) address and returns that source's payload, or throws SourceNotFoundError.
 *
 * Not-found conventions (one per source):
 *   emailData       payload { success: false, error: 'Profile not found' }
 *   hibpData        payload []                     (HIBP's 404 "no breach", as an empty list)
 *   holeheData      payload { used: [], checked: [every site exists:false / rate-limited] }
 *   zehefData       payload { data: [every service status 'not found'] }
 *   getuserData     SourceNotFoundError
 *   socialScanData  payload { data: [every platform available:true] }
 *   osintData       payload { data: [] }
 *   osData          SourceNotFoundError
 */
import type {
  AccountProfileData,
  AvatarServiceData,
  Breach,
  EmailSource,
  LinkedPersonData,
  LinkedPhoneData,
  MapsReview,
  OsintData,
  RegisteredSitesData,
  SocialScanData,
} from '@footprint/domain';
import { yearsBefore } from '../random.ts';
import {
  AVATAR_SERVICES,
  BREACHES,
  type FictionalBreach,
  HOLEHE_SITES,
  REVIEW_PLACES,
  REVIEW_TEXT,
  SOCIALSCAN_PLATFORMS,
} from '../words.ts';
import { alnum, context, type GenContext, isNotFound, noRecord } from './common.ts';
import { emailDemoMode, emailPersona } from './demo.ts';
import { avatarDataUrl, logoDataUrl } from './images.ts';
import { osintRecords } from './phone.ts';

/** The rich demo's breaches: 12, including the sensitive one and two unverified. */
const RICH_BREACHES = [
  'CricketKhel',
  'DhabaDash',
  'Gyaanpeeth',
  'Jobkarma',
  'KulhadCafeRewards',
  'Lorrylane',
  'MasalaMeter',
  'Orbitly',
  'Paisaplume',
  'RangoliReels',
  'Rishtaloom',
  'Tiffinwala',
];

const RICH_SITES = [
  'instagram',
  'twitter',
  'spotify',
  'amazon',
  'pinterest',
  'github',
  'gravatar',
  'office365',
  'duolingo',
  'quora',
  'strava',
];

function localPart(address: string): string {
  return address.split('@')[0] ?? address;
}

function emailData(ctx: GenContext): AccountProfileData {
  const { rng, persona: p, value } = ctx;
  if (isNotFound(ctx, 0.25)) return { success: false, error: 'Profile not found' };
  const rich = ctx.demo === 'rich';
  const reviewCount = rich
    ? 4
    : rng.weighted([
        [0, 35],
        [1, 25],
        [2, 20],
        [3, 12],
        [4, 8],
      ] as const);
  const reviews: MapsReview[] = rng.sample(REVIEW_PLACES, reviewCount).map((place, i) => {
    // Most reviews are near home; some from the hometown or a trip.
    const city = i === reviewCount - 1 && rng.chance(0.4) ? p.hometown : p.city;
    return {
      place_name: place.name,
      address: `${place.name}, ${rng.pick(city.localities)}, ${city.city}, ${city.state}`,
      rating: rng.weighted([
        [5, 5],
        [4, 4],
        [3, 2],
        [2, 1],
        [1, 1],
      ] as const),
      text: rng.chance(0.85) ? rng.pick(REVIEW_TEXT[place.kind]) : '',
      published_at: rng.date(yearsBefore(5), yearsBefore(0.05)).toISOString(),
      latitude: Number((city.lat + rng.float(-0.06, 0.06)).toFixed(6)),
      longitude: Number((city.lng + rng.float(-0.06, 0.06)).toFixed(6)),
    };
  });
  const hasPhoto = rich || rng.chance(0.65);
  return {
    success: true,
    PROFILE_CONTAINER: {
      profile: {
        personId: `1${rng.digits(20)}`,
        emails: [{ value }],
        names: [{ fullname: p.fullName, firstName: p.firstName, lastName: p.lastName }],
        profilePhotos: [{ url: hasPhoto ? p.avatar : avatarDataUrl('?', 9), isDefault: !hasPhoto }],
        sourceIds: { lastUpdated: rng.date(yearsBefore(3), yearsBefore(0.02)).toISOString() },
      },
    },
    maps_result: { reviews },
  };
}

function toBreach(b: FictionalBreach): Breach {
  return {
    Name: b.name,
    Title: b.title,
    Domain: `${b.slug}.example.com`,
    BreachDate: b.breachDate,
    AddedDate: b.addedDate,
    PwnCount: b.pwnCount,
    Description: b.description,
    LogoPath: logoDataUrl(b.title, b.colour),
    DataClasses: [...b.dataClasses],
    IsVerified: b.isVerified,
    IsSensitive: b.isSensitive,
  };
}

function hibpData(ctx: GenContext): Breach[] {
  const { rng } = ctx;
  if (isNotFound(ctx, 0.25)) return [];
  const chosen =
    ctx.demo === 'rich'
      ? BREACHES.filter((b) => RICH_BREACHES.includes(b.name))
      : rng.sample(
          BREACHES,
          rng.weighted([
            [1, 30],
            [2, 30],
            [3, 20],
            [4, 12],
            [6, 8],
          ] as const),
        );
  // HIBP lists breaches by name.
  return chosen.map(toBreach).sort((a, b) => String(a.Name).localeCompare(String(b.Name)));
}

function holeheData(ctx: GenContext): RegisteredSitesData {
  const { rng } = ctx;
  const none = isNotFound(ctx, 0.22);
  const used = new Set<string>(
    none ? [] : ctx.demo === 'rich' ? RICH_SITES : rng.sample(HOLEHE_SITES, rng.int(2, 9)),
  );
  const checked = HOLEHE_SITES.map((site) => {
    if (used.has(site)) return { site, exists: true, rateLimit: false };
    // Some sites throttle the checker: existence unknown, which is not the same as "no account".
    return rng.chance(0.07)
      ? { site, exists: null, rateLimit: true }
      : { site, exists: false, rateLimit: false };
  });
  return { used: HOLEHE_SITES.filter((s) => used.has(s)), checked };
}

function zehefData(ctx: GenContext): AvatarServiceData {
  const { rng, persona: p, value } = ctx;
  const none = isNotFound(ctx, 0.28);
  const found = new Set(
    none
      ? []
      : ctx.demo === 'rich'
        ? AVATAR_SERVICES.slice(0, 3)
        : rng.sample(AVATAR_SERVICES, rng.int(1, 3)),
  );
  return {
    data: AVATAR_SERVICES.map((service, i) => {
      if (!found.has(service)) {
        return { source: service, status: 'not found', username: null, avatar_url: null, profile_url: null };
      }
      const username =
        service === 'Gravatar' ? localPart(value).replace(/[^a-z0-9]/g, '') : rng.pick(p.usernames);
      return {
        source: service,
        status: 'found',
        username,
        avatar_url: avatarDataUrl(p.fullName, 4 + i),
        profile_url: `https://profiles.example.test/${service.toLowerCase()}/${encodeURIComponent(username)}`,
      };
    }),
  };
}

function getuserData(ctx: GenContext): LinkedPersonData {
  const { rng, persona: p } = ctx;
  if (isNotFound(ctx, 0.3)) throw noRecord('No professional profile for this address.');
  const rich = ctx.demo === 'rich';
  return {
    person: {
      displayName: p.fullName,
      location: `${p.city.city}, ${p.city.state}, India`,
      phoneNumbers: rich ? [`+91 ${p.mobile}`] : rng.chance(0.3) ? [`+91 ${rng.pick(p.otherMobiles)}`] : [],
      linkedInUrl: `https://www.linkedin.example.test/in/${p.firstName.toLowerCase()}-${p.lastName.toLowerCase()}-${alnum(rng, 8)}`,
      photoUrl: rich || rng.chance(0.6) ? p.avatar : null,
      headline: `${p.jobTitle} at ${p.employer}`,
      schools: {
        educationHistory: p.education.map((e) => ({
          schoolName: e.school,
          degreeName: e.degree,
          fieldOfStudy: e.field,
          schoolUrl: e.url ?? null,
          startEndDate: { start: { year: e.startYear }, end: { year: e.endYear } },
        })),
      },
      positions: {
        positionHistory: p.positions.map((pos) => ({
          title: pos.title,
          companyName: pos.company,
          companyUrl: pos.url,
          startEndDate: {
            start: { year: pos.startYear },
            end: pos.endYear === undefined ? null : { year: pos.endYear },
          },
        })),
      },
      skills: [...p.skills],
    },
  };
}

function socialScanData(ctx: GenContext): SocialScanData {
  const { rng } = ctx;
  const none = isNotFound(ctx, 0.25);
  const registered = new Set<string>(
    none
      ? []
      : ctx.demo === 'rich'
        ? ['Instagram', 'Twitter', 'GitHub', 'Spotify', 'Pinterest', 'Reddit']
        : rng.sample(SOCIALSCAN_PLATFORMS, rng.int(1, 5)),
  );
  return {
    data: SOCIALSCAN_PLATFORMS.map((platform) => {
      if (registered.has(platform)) {
        return { platform, available: false, valid: true, message: 'Email is already registered' };
      }
      if (!none && rng.chance(0.05)) {
        return { platform, available: null, valid: false, message: 'Rate limited; try again later' };
      }
      return { platform, available: true, valid: true, message: 'Available' };
    }),
  };
}

function osintData(ctx: GenContext): OsintData {
  const { rng, value } = ctx;
  if (isNotFound(ctx, 0.25)) return { data: [] };
  const count =
    ctx.demo === 'rich'
      ? 3
      : rng.weighted([
          [1, 45],
          [2, 35],
          [3, 20],
        ] as const);
  return { data: osintRecords(ctx, count, { email: value }) };
}

function osData(ctx: GenContext): LinkedPhoneData {
  const { rng, persona: p } = ctx;
  if (isNotFound(ctx, 0.3)) throw noRecord('No phone number linked to this address.');
  if (ctx.demo === 'rich') return { data: { phone: `91${p.mobile}` } };
  return {
    data: {
      phone: rng.chance(0.75) ? `+91${p.mobile}` : [`+91${p.mobile}`, `+91${rng.pick(p.otherMobiles)}`],
    },
  };
}

const GENERATORS: Record<EmailSource, (ctx: GenContext) => unknown> = {
  emailData,
  hibpData,
  holeheData,
  zehefData,
  getuserData,
  socialScanData,
  osintData,
  osData,
};

export function normalizeEmail(address: string): string {
  return address.trim().toLowerCase();
}

/** The sandbox payload of one e-mail source for an address; may throw SourceNotFoundError. */
export function emailSourcePayload(source: EmailSource, address: string): unknown {
  const value = normalizeEmail(address);
  const ctx = context(source, value, emailPersona(value), emailDemoMode(value));
  return GENERATORS[source](ctx);
}
