// Which names say that their value is a secret: one list, asked wherever a value is judged by its
// name (issue 39). An import moves such a value out of the scenario into a credentials file
// (engine/import-requests/headers.ts, credentials.ts); Try once shows it masked
// (engine/run/try/mask-secrets.ts). Before, each kept its own pattern, and a name one of them knew
// (X-Auth-User, a "passphrase" field) slipped past the other.
//
// Three strengths, from the narrowest:
//   a field or query parameter   holds a credential: passwords, tokens, keys that are named as keys
//                                (api_key, access-key, private_key), never a plain "key" (sortKey)
//   a header                     every field word, plus auth, csrf/xsrf and signature in the name,
//                                and Cookie / Set-Cookie
//   shown masked                 all of the above, plus any name holding "key" or "cookie": showing
//                                a value too few is worse than masking one too many

/** Words that make any name a credential's, wherever it stands. */
const CREDENTIAL_WORDS = /passw|passphrase|secret|token|credential|session|api[-_]?key|access[-_]?key|private[-_]?key/i;
/** Whole names of short credentials (a field "pin" is one; "pinned" is not). */
const CREDENTIAL_NAMES = /^(pin|otp)$/i;
const PASSWORD_WORDS = /passw|passphrase|^pin$/i;
/** The login name beside a password: it moves with it, so a row of a credentials file is one user. */
const LOGIN_NAMES = /^(user|username|user_name|email|e-mail|login|account)$/i;
/** What makes a header's name a secret's besides the credential words (X-Auth-Token, X-CSRF-Token, X-Signature). */
const HEADER_WORDS = /auth|csrf|xsrf|signature|^(set-)?cookie$/i;
/** What a view masks besides: any key, any cookie. */
const SHOWN_WORDS = /key|cookie/i;

/** A JSON or form field, or a query parameter, that holds a credential. */
export const isCredentialField = (name: string): boolean => CREDENTIAL_WORDS.test(name) || CREDENTIAL_NAMES.test(name);

/** A field holding a password: its login name goes with it. */
export const isPasswordField = (name: string): boolean => PASSWORD_WORDS.test(name);

/** A field naming who logs in (user, email, login...). */
export const isLoginField = (name: string): boolean => LOGIN_NAMES.test(name);

/** A header whose value is a credential (Authorization, Cookie, X-Api-Key, X-Auth-Token, ...). */
export const isSecretHeader = (name: string): boolean => HEADER_WORDS.test(name) || CREDENTIAL_WORDS.test(name);

/** A name (header, field, parameter, data column, variable) whose value a view shows masked. */
export const isShownMasked = (name: string): boolean => isSecretHeader(name) || isCredentialField(name) || SHOWN_WORDS.test(name);
