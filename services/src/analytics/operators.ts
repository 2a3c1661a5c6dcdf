/** Whether a signed-in account is one of the deployment's operators. */
export type OperatorCheck = (account: { email: string }) => boolean;

/**
 * Operators are named by the deployment (OPERATOR_EMAILS, comma-separated), not signed up: an operator
 * is an ordinary account whose e-mail the setting lists. They may read every owner's analytics over
 * GraphQL and see the process figures of the system metrics. Unset, there are none.
 */
export function createOperatorCheck(setting: string | undefined): OperatorCheck {
  const emails = new Set(
    (setting ?? '')
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
  );
  return (account) => emails.has(account.email.trim().toLowerCase());
}
