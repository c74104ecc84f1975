/**
 * The merged profile: what the results page, the PDF report and the AI report show. Built by the pure
 * functions in profile.ts from a phone or e-mail lookup answer. Every entry names the source that
 * said it, so an investigator can weigh it.
 */

/** Source labels shown beside each value (spec §3 names the first seven). */
export type SourceLabel =
  | 'Social Media'
  | 'WhatsApp'
  | 'Gov'
  | 'ISP Response'
  | 'Account Provider'
  | 'GetUser'
  | 'LinkedIn'
  | 'Caller ID'
  | 'Caller Apps'
  | 'OSINT'
  | 'Telegram'
  | 'Avatar Service'
  | 'Social Scan'
  | 'Breach Data'
  | 'Registered Sites';

/** One value with its source; `key` qualifies it (e.g. 'PAN Number', 'Gender', 'permanent'). */
export interface ProfileEntry {
  value: string;
  source: SourceLabel;
  key?: string;
}

export interface Qualification {
  degree?: string;
  field?: string;
  school?: string;
  url?: string;
  startYear?: number;
  endYear?: number;
  source: SourceLabel;
}

export interface Experience {
  title?: string;
  company?: string;
  url?: string;
  startYear?: number;
  endYear?: number;
  source: SourceLabel;
}

/** Internet Presence: a platform and whether an account is active there. */
export interface PlatformPresence {
  platform: string;
  active: boolean;
  url?: string;
  source: SourceLabel;
}

export interface ProfileImage {
  url: string;
  source: SourceLabel;
}

export interface MergedProfile {
  names: ProfileEntry[];
  usernames: ProfileEntry[];
  phones: ProfileEntry[];
  emails: ProfileEntry[];
  basicInfo: ProfileEntry[];
  bankDetails: ProfileEntry[];
  upiIds: ProfileEntry[];
  identityProofs: ProfileEntry[];
  verifiedAddresses: ProfileEntry[];
  locations: ProfileEntry[];
  countryCodes: ProfileEntry[];
  carriers: ProfileEntry[];
  jobProfiles: ProfileEntry[];
  rcNumbers: ProfileEntry[];
  lastUpdated: ProfileEntry[];
  qualifications: Qualification[];
  experience: Experience[];
  skills: ProfileEntry[];
  internetPresence: PlatformPresence[];
  images: ProfileImage[];
}

/** Tiles and flags of the phone results page (spec §2.5, 'Other elements'). */
export interface PhoneHighlights {
  markedAsSpam: boolean;
  whatsappBusiness: boolean;
  imsi?: string;
  /** Active when the ISP data has a timestamp, else Inactive. */
  phoneStatus: 'Active' | 'Inactive';
  facebookUrl?: string;
}

/** Section titles in display order, exactly as spec §2.5 lists them. */
export const PROFILE_SECTIONS = [
  { key: 'names', title: 'Full Names and Alias' },
  { key: 'usernames', title: 'Usernames' },
  { key: 'phones', title: 'Phone Numbers' },
  { key: 'emails', title: 'Emails' },
  { key: 'basicInfo', title: 'Basic Info' },
  { key: 'bankDetails', title: 'Bank Details' },
  { key: 'upiIds', title: 'Upi Ids' },
  { key: 'identityProofs', title: 'Identity Proofs' },
  { key: 'verifiedAddresses', title: 'Verified Address' },
  { key: 'locations', title: 'Locations' },
  { key: 'countryCodes', title: 'Country Codes' },
  { key: 'carriers', title: 'Carriers' },
  { key: 'jobProfiles', title: 'Job Profiles' },
  { key: 'rcNumbers', title: 'RC Numbers' },
  { key: 'lastUpdated', title: 'Last Updated' },
  { key: 'qualifications', title: 'Qualifications' },
  { key: 'experience', title: 'Experience' },
  { key: 'skills', title: 'Skills' },
  { key: 'internetPresence', title: 'Internet Presence' },
] as const satisfies ReadonlyArray<{ key: keyof MergedProfile; title: string }>;

/** Labels of identity proofs (spec §3); other kinds use a title-cased name. */
export const IDENTITY_PROOF_LABELS: Record<string, string> = {
  pan_number: 'PAN Number',
  aadhaar_number: 'Aadhaar',
  voter_id: 'Voter ID',
  passport_number: 'Passport Number',
  driving_license: 'Driving License Number',
  ration_card: 'Ration Card Number',
};
