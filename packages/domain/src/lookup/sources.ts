/**
 * Payload shapes of every lookup source, as spec §3 names them. Upstream answers are untrusted: every
 * field is optional and may be null, and consumers (the profile merge, the results page, the PDF) must
 * cope with any of them missing. Field names are the vendors' own, spelling included
 * (`provieder`). Where a source is a KYC vendor call, the payload is the vendor envelope passed
 * through: `{ data, status_code, success, message, message_code }`.
 * Which keys a phone or e-mail answer holds, and their names, are in catalogue/sources.ts.
 */

import type { SourceStatus } from '../catalogue/sources.ts';
import type { AccountSearchAnswer } from '../username/accounts.ts';
import type { SiteCheckAnswer } from '../username/sites.ts';

type Maybe<T> = T | null | undefined;

/** The KYC vendor's envelope; `data.client_id` is the vendor's request id. */
export interface KycEnvelope<T> {
  data?: Maybe<T & { client_id?: Maybe<string> }>;
  status_code?: Maybe<number>;
  success?: Maybe<boolean>;
  message?: Maybe<string>;
  message_code?: Maybe<string>;
}

// ---------- phone sources ----------

/** wpData: WhatsApp presence. */
export interface WhatsAppData {
  pushname?: Maybe<string>;
  number?: Maybe<string>;
  isUser?: Maybe<boolean>;
  isBusiness?: Maybe<boolean>;
  profilePic?: Maybe<string>;
  countryCode?: Maybe<string>;
}

/** hlrData / hData: HLR / ISP network lookup. May arrive as a JSON string (spec §3). */
export interface HlrData {
  msisdn?: Maybe<string>;
  imsi?: Maybe<string>;
  mccmnc?: Maybe<string>;
  connectivity_status?: Maybe<'CONNECTED' | 'ABSENT' | 'INVALID' | string>;
  timestamp?: Maybe<string>;
  original_country_name?: Maybe<string>;
  original_country_code?: Maybe<string>;
  original_network_name?: Maybe<string>;
  ported?: Maybe<boolean>;
  ported_network_name?: Maybe<string>;
  roaming?: Maybe<boolean>;
}

/** tcData: caller-id directory. */
export interface CallerIdData {
  data?: Maybe<{
    basicInfo?: Maybe<{
      name?: Maybe<{ fullName?: Maybe<string>; altName?: Maybe<string> }>;
      gender?: Maybe<string>;
      jobTitle?: Maybe<string>;
      /** Who the number is registered to, where the directory says: 'Business' or 'Consumer' (CNAM). */
      callerType?: Maybe<string>;
    }>;
    addressInfo?: Maybe<{ address?: Maybe<string>; countryCode?: Maybe<string> }>;
    phoneInfo?: Maybe<{ number?: Maybe<string>; carrier?: Maybe<string> }>;
  }>;
}

/** allData / allMData: several caller-name apps at once. */
export interface AllCallerData {
  callapp?: Maybe<{ name?: Maybe<string> }>;
  viewcaller?: Maybe<Array<Maybe<{ name?: Maybe<string> }>>>;
  eyecon?: Maybe<string>;
  tcData?: Maybe<{ number?: Maybe<string>; provieder?: Maybe<string> }>;
}

/** smData: social-media reverse lookup. */
export interface SocialMediaData {
  response?: Maybe<{ name?: Maybe<string>; fb?: Maybe<string>; is_spam?: Maybe<boolean> }>;
}

/** One OSINT record: fixed fields plus arbitrary extra fields shown under 'Additional Information'. */
export interface OsintRecord {
  source?: Maybe<string>;
  name?: Maybe<string>;
  username?: Maybe<string>;
  address?: Maybe<string>;
  phone?: Maybe<string>;
  phone_secondary?: Maybe<string>;
  email?: Maybe<string>;
  email_secondary?: Maybe<string>;
  age?: Maybe<string | number>;
  gender?: Maybe<string>;
  dob?: Maybe<string>;
  image?: Maybe<string>;
  [extra: string]: unknown;
}

/** osintData: records from open sources. */
export interface OsintData {
  data?: Maybe<OsintRecord[]>;
}

export type IdentityKind =
  | 'pan_number'
  | 'aadhaar_number'
  | 'voter_id'
  | 'passport_number'
  | 'driving_license'
  | 'ration_card'
  | string;

/** sKData / spkData: mobile → identity bundle (KYC prefill-by-mobile). */
export type PrefillData = KycEnvelope<{
  mobile?: Maybe<string>;
  details?: Maybe<{
    name?: Maybe<string>;
    personal_info?: Maybe<{
      full_name?: Maybe<string>;
      dob?: Maybe<string>;
      age?: Maybe<number | string>;
      gender?: Maybe<string>;
      total_income?: Maybe<string>;
      occupation?: Maybe<string>;
    }>;
    phone_info?: Maybe<
      Array<Maybe<{ number?: Maybe<string>; type_code?: Maybe<string>; reported_date?: Maybe<string> }>>
    >;
    email_info?: Maybe<Array<Maybe<{ email_address?: Maybe<string>; reported_date?: Maybe<string> }>>>;
    identity_info?: Maybe<Record<IdentityKind, Maybe<Array<Maybe<{ id_number?: Maybe<string> }>>>>>;
    address_info?: Maybe<
      Array<
        Maybe<{
          address?: Maybe<string>;
          state?: Maybe<string>;
          type?: Maybe<string>;
          postal?: Maybe<string>;
          reported_date?: Maybe<string>;
        }>
      >
    >;
  }>;
}>;

/** suData / spuData: mobile → UPI ids. */
export type UpiLookupData = KycEnvelope<{
  name?: Maybe<string>;
  mobile_number?: Maybe<string>;
  upi_id?: Maybe<string[]>;
}>;

/** sbData / spbData: mobile → bank account. */
export type BankLookupData = KycEnvelope<{
  name?: Maybe<string>;
  bank_account_no?: Maybe<string>;
  bank_ifsc?: Maybe<string>;
  bank_details?: Maybe<Record<string, Maybe<string>>>;
}>;

/** srData / sprcData: mobile → vehicle registrations. */
export type RcLookupData = KycEnvelope<{ rc_number?: Maybe<string | string[]> }>;

/** telData / tlgData: Telegram account. */
export interface TelegramData {
  first_name?: Maybe<string>;
  last_name?: Maybe<string>;
  username?: Maybe<string>;
  found?: Maybe<boolean>;
  profile_photo?: Maybe<string>;
}

/** Per-source failure in a lookup answer: source key → what went wrong, in words. */
export type SourceErrors = Record<string, string>;

/** The paid lookup whose stored answer a free repeat replays (a reuse within the cache window). */
export interface ReusedFrom {
  lookup_id: string;
  /** That lookup's case reference, which may differ from the repeat's. */
  case_reference: string | null;
}

/** What this server adds to every lookup answer besides the sources' payloads. */
export interface LookupAnswerMeta {
  /** The balance after the lookup. */
  credits: number;
  /** The lookup's id, whether it came from the cache, and sandbox marking. */
  lookup_id?: string;
  cached?: boolean;
  sandbox?: boolean;
  /** What became of every source of the lookup, live or sandbox. */
  source_status?: Record<string, SourceStatus>;
  /** When the sources answered (for a reuse, the time of the lookup it replays). */
  answered_at?: string;
  /** The paid lookup a reused answer replays; null when the sources were asked. */
  reused_from?: ReusedFrom | null;
}

/** GET /api/tel answer (spec §3). Every source key is present only when that source answered. */
export interface PhoneLookupResponse extends LookupAnswerMeta {
  wpData?: WhatsAppData | null;
  hlrData?: HlrData | string | null;
  tcData?: CallerIdData | null;
  allData?: AllCallerData | null;
  smData?: SocialMediaData | null;
  osintData?: OsintData | null;
  sKData?: PrefillData | null;
  suData?: UpiLookupData | null;
  sbData?: BankLookupData | null;
  srData?: RcLookupData | null;
  telData?: TelegramData | null;
  errors: SourceErrors;
}

// ---------- e-mail sources ----------

export interface MapsReview {
  place_name?: Maybe<string>;
  address?: Maybe<string>;
  rating?: Maybe<number>;
  text?: Maybe<string>;
  published_at?: Maybe<string>;
  latitude?: Maybe<number>;
  longitude?: Maybe<number>;
}

/** emailData: the web-account-provider profile (a Google-account-style lookup) with maps reviews. */
export interface AccountProfileData {
  success?: Maybe<boolean>;
  error?: Maybe<string>;
  PROFILE_CONTAINER?: Maybe<{
    profile?: Maybe<{
      personId?: Maybe<string>;
      emails?: Maybe<Array<Maybe<{ value?: Maybe<string> }>>>;
      names?: Maybe<
        Array<Maybe<{ fullname?: Maybe<string>; firstName?: Maybe<string>; lastName?: Maybe<string> }>>
      >;
      profilePhotos?: Maybe<Array<Maybe<{ url?: Maybe<string>; isDefault?: Maybe<boolean> }>>>;
      sourceIds?: Maybe<{ lastUpdated?: Maybe<string> }>;
    }>;
  }>;
  maps_result?: Maybe<{ reviews?: Maybe<MapsReview[]> }>;
}

/** hibpData: breaches (Have I Been Pwned v3 shape). */
export interface Breach {
  Name?: Maybe<string>;
  Title?: Maybe<string>;
  Domain?: Maybe<string>;
  BreachDate?: Maybe<string>;
  AddedDate?: Maybe<string>;
  PwnCount?: Maybe<number>;
  Description?: Maybe<string>;
  LogoPath?: Maybe<string>;
  DataClasses?: Maybe<string[]>;
  IsVerified?: Maybe<boolean>;
  IsSensitive?: Maybe<boolean>;
}

/** holeheData: sites where the address is registered. `checked` keeps per-site status (research notes). */
export interface RegisteredSitesData {
  used?: Maybe<string[]>;
  checked?: Maybe<Array<{ site: string; exists: boolean | null; rateLimit?: boolean }>>;
}

/**
 * zehefData: the avatar service. One item per service checked; a profile service such as Gravatar
 * also says who the person is (`display_name`, `location`, `job_title`, `company`: Gravatar's names),
 * and lists each account the person verified elsewhere as an item of its own.
 */
export interface AvatarServiceData {
  data?: Maybe<
    Array<
      Maybe<{
        source?: Maybe<string>;
        status?: Maybe<'found' | string>;
        username?: Maybe<string>;
        avatar_url?: Maybe<string>;
        profile_url?: Maybe<string>;
        display_name?: Maybe<string>;
        location?: Maybe<string>;
        job_title?: Maybe<string>;
        company?: Maybe<string>;
      }>
    >
  >;
}

export interface Education {
  schoolName?: Maybe<string>;
  degreeName?: Maybe<string>;
  fieldOfStudy?: Maybe<string>;
  schoolUrl?: Maybe<string>;
  startEndDate?: Maybe<{ start?: Maybe<{ year?: Maybe<number> }>; end?: Maybe<{ year?: Maybe<number> }> }>;
}

export interface Position {
  title?: Maybe<string>;
  companyName?: Maybe<string>;
  companyUrl?: Maybe<string>;
  startEndDate?: Maybe<{ start?: Maybe<{ year?: Maybe<number> }>; end?: Maybe<{ year?: Maybe<number> }> }>;
}

/** An account of the person on a social network or other site. */
export interface SocialProfile {
  /** The site, in the vendor's words ('github', 'twitter'). */
  network?: Maybe<string>;
  url?: Maybe<string>;
  username?: Maybe<string>;
}

/** getuserData: the LinkedIn-style person. */
export interface LinkedPersonData {
  person?: Maybe<{
    displayName?: Maybe<string>;
    location?: Maybe<string>;
    /** Every place the person has been associated with, the current one included. */
    locationHistory?: Maybe<string[]>;
    phoneNumbers?: Maybe<string[]>;
    linkedInUrl?: Maybe<string>;
    photoUrl?: Maybe<string>;
    headline?: Maybe<string>;
    schools?: Maybe<{ educationHistory?: Maybe<Education[]> }>;
    positions?: Maybe<{ positionHistory?: Maybe<Position[]> }>;
    skills?: Maybe<string[]>;
    /** Accounts on other sites (the main LinkedIn profile is `linkedInUrl`). */
    profiles?: Maybe<Array<Maybe<SocialProfile>>>;
  }>;
}

/** socialScanData: username/e-mail availability per platform. */
export interface SocialScanData {
  data?: Maybe<
    Array<
      Maybe<{
        platform?: Maybe<string>;
        available?: Maybe<boolean>;
        valid?: Maybe<boolean>;
        message?: Maybe<string>;
      }>
    >
  >;
}

/** osData: a phone number linked to the e-mail address. */
export interface LinkedPhoneData {
  data?: Maybe<{ phone?: Maybe<string | string[]> }>;
}

export interface EmailLookupData {
  emailData?: AccountProfileData | null;
  hibpData?: Breach[] | null;
  holeheData?: RegisteredSitesData | null;
  zehefData?: AvatarServiceData | null;
  getuserData?: LinkedPersonData | null;
  socialScanData?: SocialScanData | null;
  osintData?: OsintData | null;
  osData?: LinkedPhoneData | null;
  errors: SourceErrors;
}

/** GET /api/email answer (spec §3): data and credits. */
export interface EmailLookupResponse extends LookupAnswerMeta {
  data: EmailLookupData;
}

/**
 * GET /api/username answer: flat, like the phone answer — one key per username source that answered
 * (`sitesData`: the site check; `pseudonymData`: a vendor's account search), the failures under `errors`, and the lookup's own fields.
 */
export interface UsernameLookupResponse extends LookupAnswerMeta {
  sitesData?: SiteCheckAnswer | null;
  /** A vendor's account search: the accounts it says belong to the name. */
  pseudonymData?: AccountSearchAnswer | null;
  errors: SourceErrors;
}

// ---------- paid detail lookups ----------

export interface RcDetails {
  rc_number?: Maybe<string>;
  owner_name?: Maybe<string>;
  father_name?: Maybe<string>;
  present_address?: Maybe<string>;
  permanent_address?: Maybe<string>;
  maker_description?: Maybe<string>;
  maker_model?: Maybe<string>;
  body_type?: Maybe<string>;
  fuel_type?: Maybe<string>;
  color?: Maybe<string>;
  norms_type?: Maybe<string>;
  registration_date?: Maybe<string>;
  registered_at?: Maybe<string>;
  fit_up_to?: Maybe<string>;
  insurance_company?: Maybe<string>;
  insurance_policy_number?: Maybe<string>;
  insurance_upto?: Maybe<string>;
  pucc_upto?: Maybe<string>;
  tax_upto?: Maybe<string>;
  financer?: Maybe<string>;
  rc_status?: Maybe<string>;
  [extra: string]: unknown;
}

export interface UpiDetails {
  account_exists?: Maybe<boolean>;
  full_name?: Maybe<string>;
  upi_id?: Maybe<string>;
  [extra: string]: unknown;
}

export interface Challan {
  challan_number?: Maybe<string>;
  challan_date?: Maybe<string>;
  amount?: Maybe<number | string>;
  offense_details?: Maybe<string>;
  challan_status?: Maybe<string>;
  state?: Maybe<string>;
  payment_url?: Maybe<string>;
  [extra: string]: unknown;
}

/** POST /api/rcfull-details, /api/upifull-details, /api/rc-challan-details: `data.data` is the vendor data. */
export interface DetailLookupResponse<T> extends LookupAnswerMeta {
  data: KycEnvelope<T>;
}

export type ChallanData = { challan_details?: Maybe<Challan[]>; rc_number?: Maybe<string> };
