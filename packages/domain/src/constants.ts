/** Business constants and limits of spec §9, in one place for the web and the server. */
export const SESSION_CHECK_INTERVAL_MS = 60_000;
export const LOGOUT_DELAY_MS = 2_000;
export const TOAST_AUTO_CLOSE_MS = 5_000;
export const COPIED_HINT_MS = 3_000;
export const PAGE_TRANSITION_S = 0.4;

export const PHONE_LENGTH = 10;
export const EMAIL_MAX_LENGTH = 100;
export const DEFAULT_DIAL_CODE = '91';

export const OTP_LENGTH = 6;
export const OTP_TICK_MS = 1_000;

export const LEAK_MAX_ROWS = 4;
export const LEAK_INPUT_MAX_LENGTH = 50;
export const LEAK_PAGE_SIZE = 10;
export const LEAK_PAGINATION_WINDOW = 3;

export const PARTICLES = {
  count: 100,
  fpsLimit: 120,
  linkDistance: 120,
  grabDistance: 180,
} as const;

/** Limits the server applies to auth input; not in the spec, chosen to bound hashing work and storage. */
export const NAME_MAX_LENGTH = 255;
/** New passwords (NIST SP 800-63B's length-first rule): spaces allowed, no composition rules. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

export const DEVICE_ID_HEADER = 'x-device-id';
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';

export const SANDBOX_BANNER = 'Sandbox data — synthetic';
