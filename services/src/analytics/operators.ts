/**
 * Whether a signed-in account is one of the deployment's operators. An account given without
 * `emailVerified` counts as unverified: only a listed id makes it an operator.
 */
export type OperatorCheck = (account: { id: string; email: string; emailVerified?: boolean }) => boolean;

const list = (setting: string | undefined, normalise: (entry: string) => string) =>
  new Set(
    (setting ?? '')
      .split(',')
      .map((entry) => normalise(entry.trim()))
      .filter(Boolean),
  );

/**
 * Operators are named by the deployment, not signed up. They may read every owner's analytics over
 * GraphQL and see the process figures of the system metrics. An account is one when:
 * - its id is listed in OPERATOR_ACCOUNT_IDS, or
 * - its address is listed in OPERATOR_EMAILS *and it has verified that address*: otherwise whoever
 *   registered a listed address first (anyone can type one) would be an operator.
 * Unset, there are none. This is the one decision; GraphQL and the routes call it.
 */
export function createOperatorCheck(setting: { emails?: string; accountIds?: string }): OperatorCheck {
  const emails = list(setting.emails, (email) => email.toLowerCase());
  const accountIds = list(setting.accountIds, (id) => id);
  return (account) =>
    accountIds.has(account.id) || (account.emailVerified === true && emails.has(account.email.trim().toLowerCase()));
}
