/**
 * The identity module's public entry: registration, sign-in (password, Google), sessions, tokens, the login
 * throttle and e-mail ownership. Other modules import only this file (DESIGN.md §3, eslint.config.js).
 */
export {
  accountOfState,
  accountStreamFor,
  createAccountCommands,
  createAccountRegistration,
} from './account-registration.js';
export type { AccountRegistration, RunAccountCommand } from './account-registration.js';
export { loadAuthSecret } from './auth-secret.js';
export { createAuthenticator } from './authenticator.js';
export type { Authenticated, Authenticator } from './authenticator.js';
export { demoAccounts, ensureDemoAccounts } from './demo-accounts.js';
export { createEmailOwnership } from './email-ownership.js';
export type { EmailOwnership } from './email-ownership.js';
export { createGoogleSignIn } from './google-sign-in.js';
export type { GoogleSignIn } from './google-sign-in.js';
export { createGoogleVerifier } from './google-verifier.js';
export type { GoogleVerifier } from './google-verifier.js';
export { identityMigrations } from './identity.migrations.js';
export { createLinkTokens } from './link-tokens.store.js';
export type { ClosableSocket } from './live-sockets.js';
export { addressKey, createLoginThrottle } from './login-throttle.js';
export type { LoginThrottle } from './login-throttle.js';
export { createPasswordHasher } from './password-hasher.js';
export type { PasswordHasher } from './password-hasher.js';
export { ALL_SESSIONS, createSessionStore } from './session.store.js';
export type { SessionStore, SignedInAccount } from './session.store.js';
export { createTokenIssuer } from './token-issuer.js';
export type { TokenIssuer } from './token-issuer.js';
