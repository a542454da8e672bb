/**
 * The length rule for NEW passwords (account create, password change and reset), shared by the
 * server's body schemas and the client's forms. ASVS 5.0 V6.2.1: at least 12 characters.
 * Signing in with an older, shorter password keeps working: the rule applies only when a
 * password is set. The rest of the policy (no email, not a common password) is the server's
 * (server/auth/password-policy.ts).
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 200;
