/** The analysis's shapes: what the results page, the lookup PDF and the AI report show of a profile. */

/** Where one merged value comes from, in words an investigator can check. */
export interface Provenance {
  /** The profile's source label ('OSINT', 'Gov', 'Caller ID'). */
  source: string;
  /**
   * The source's real name: the breach or leak of an OSINT record ('Orbitly 2019'), the service of an
   * avatar, the live vendor, else the answer source's catalogue name ('Gov identity records').
   */
  name: string;
  /** The answer's source key ('osintData', 'sKData'), when known. */
  key?: string;
  /** The answer source the name was given by, when the name is a record's own ('OSINT'). */
  via?: string;
  /** The live vendor, when `source_status` names one. */
  vendor?: string;
  /** ISO date-time the source answered: its own time when `source_status` carries one, else the answer's. */
  answeredAt?: string;
  /** Whether a real vendor (live) or the synthetic sandbox answered; absent when not recorded. */
  mode?: 'live' | 'sandbox';
}

export interface AnalysisValue {
  /** The merged value as shown: E.164 phones, lower-cased e-mails, ISO dates, the best-cased name. */
  value: string;
  /** Every source label that gave it, most reliable first. */
  sources: string[];
  confidence: number;
  /** Each source record behind the value (absent from analyses built before provenance was kept). */
  provenance?: Provenance[];
}

export type AttributeStatus = 'corroborated' | 'conflicting' | 'single-source';

export interface AnalysisAttribute {
  attribute: string;
  values: AnalysisValue[];
  status: AttributeStatus;
}

export interface ExposureSummary {
  breaches: number;
  breachNames: string[];
  sensitiveBreaches: number;
  registeredSites: number;
  publicProfiles: Array<{ platform: string; url?: string }>;
  dataClasses: string[];
}

export interface TimelineEvent {
  date: string;
  event: string;
  source: string;
}

export interface ProfileAnalysis {
  attributes: AnalysisAttribute[];
  exposure: ExposureSummary;
  timeline: TimelineEvent[];
  nextSteps: string[];
}

/** What the answer says about its sources, beside its payloads. */
export interface AnswerMeta {
  /** The answer's `source_status`: per source key its state, mode, vendor (and its own time, if any). */
  sourceStatus?: unknown;
  /** The answer's `answered_at`. */
  answeredAt?: unknown;
}
