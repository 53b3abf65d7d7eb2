// Lifetimes and protocol constants of agent identity (SERVICE.md parts 5 and 8). README "Agent identity"
// documents the same numbers; change them together.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** An unclaimed anonymous credential (and anything bought with it) dies this long after registration. */
export const ANONYMOUS_TTL_MS = 3 * DAY;
/** A service_auth registration waits this long for its claim before it is dropped. */
export const PENDING_CLAIM_TTL_MS = 1 * DAY;
/** A claim link (attempt.verification_uri) lives this long. */
export const CLAIM_LINK_TTL_MS = 10 * MINUTE;
/** A user code shown to the human must be typed back within this window. */
export const USER_CODE_TTL_MS = 10 * MINUTE;
/** Live (unexpired, unfinished) attempts per credential; one more is too_many_attempts. */
export const MAX_LIVE_ATTEMPTS = 3;
/** Wrong user codes per attempt before it locks (too_many_attempts). */
export const MAX_USER_CODE_FAILURES = 5;
/** Access tokens from /oauth2/token. */
export const ACCESS_TOKEN_TTL_S = 10 * 60;
/** The identity assertion of a claimed credential (re-issued by type=refresh). */
export const CLAIMED_ASSERTION_TTL_MS = 1 * DAY;
/** Refresh tokens (rotated on every use). */
export const REFRESH_TOKEN_TTL_MS = 90 * DAY;
/** A new signing key is made when the newest one is older than this; the previous one stays published. */
export const SIGNING_KEY_ROTATE_MS = 30 * DAY;
/** ID-JAG rules (SERVICE.md part 5). */
export const ID_JAG_MAX_EXP_AHEAD_S = 10 * 60;
export const ID_JAG_MAX_AUTH_AGE_S = 30 * 24 * 60 * 60;
export const CLOCK_SKEW_S = 30;
/** Human sign-in codes. */
export const SIGN_IN_CODE_TTL_MS = 10 * MINUTE;
export const MAX_SIGN_IN_CODE_FAILURES = 5;
export const MAX_SIGN_IN_CODES_PER_WINDOW = 5;

export const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
export const ID_JAG_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id-jag";
export const ID_JAG_TYP = "oauth-id-jag+jwt";
/** typ of the identity assertion this platform issues (the agent stores it and exchanges it). */
export const ASSERTION_TYP = "agent-identity+jwt";
/** RFC 9068 access token typ. */
export const ACCESS_TOKEN_TYP = "at+jwt";
export const SIGNING_ALG = "ES256";
