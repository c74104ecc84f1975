/**
 * The merged profile: what the results page, the PDF report and the AI report show. Built by the pure
 * functions in profile.ts from a phone or e-mail lookup answer. Every entry names the source that
 * said it, so an investigator can weigh it.
 */

import type { SourceLabel } from '../catalogue/sources.ts';
import { messages } from '../messages.ts';

/**
 * Where, inside one answer, a value came from: the answer's source key ('osintData', 'sKData') and, for
 * sources that hold records of other sources, the record's own name (the breach or leak an OSINT record
 * comes from, the service an avatar was found on).
 */
export interface ProfileOrigin {
  key: string;
  name?: string;
}

/** One value with its source; `key` qualifies it (e.g. 'PAN Number', 'Gender', 'permanent'). */
export interface ProfileEntry {
  value: string;
  source: SourceLabel;
  key?: string;
  /**
   * Every place in the answer that gave this value under this source label, when the profile was merged
   * with `{ origins: true }` (the analysis's provenance); absent otherwise.
   */
  origins?: ProfileOrigin[];
}

/** How a profile is merged. */
export interface MergeOptions {
  /** Record each entry's origins (`ProfileEntry.origins`): which answer key and record gave it. */
  origins?: boolean;
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
  /** Active when the ISP data has a timestamp, Inactive without one, Unknown when no ISP data came. */
  phoneStatus: 'Active' | 'Inactive' | 'Unknown';
  facebookUrl?: string;
  /**
   * Which of the sources behind these flags answered. A "No" from a source that never answered
   * (not configured, failed) would be invented: such a flag is shown as not known.
   */
  answered: { social: boolean; whatsapp: boolean; isp: boolean };
}

/** Section titles in display order, exactly as spec §2.5 lists them. */
export const PROFILE_SECTIONS = [
  { key: 'names', title: messages.profile.sections.names },
  { key: 'usernames', title: messages.profile.sections.usernames },
  { key: 'phones', title: messages.profile.sections.phones },
  { key: 'emails', title: messages.profile.sections.emails },
  { key: 'basicInfo', title: messages.profile.sections.basicInfo },
  { key: 'bankDetails', title: messages.profile.sections.bankDetails },
  { key: 'upiIds', title: messages.profile.sections.upiIds },
  { key: 'identityProofs', title: messages.profile.sections.identityProofs },
  { key: 'verifiedAddresses', title: messages.profile.sections.verifiedAddresses },
  { key: 'locations', title: messages.profile.sections.locations },
  { key: 'countryCodes', title: messages.profile.sections.countryCodes },
  { key: 'carriers', title: messages.profile.sections.carriers },
  { key: 'jobProfiles', title: messages.profile.sections.jobProfiles },
  { key: 'rcNumbers', title: messages.profile.sections.rcNumbers },
  { key: 'lastUpdated', title: messages.profile.sections.lastUpdated },
  { key: 'qualifications', title: messages.profile.sections.qualifications },
  { key: 'experience', title: messages.profile.sections.experience },
  { key: 'skills', title: messages.profile.sections.skills },
  { key: 'internetPresence', title: messages.profile.sections.internetPresence },
] as const satisfies ReadonlyArray<{ key: keyof MergedProfile; title: string }>;

/** Labels of identity proofs (spec §3); other kinds use a title-cased name. */
export const IDENTITY_PROOF_LABELS: Record<string, string> = messages.profile.identityProofs;
