import { passwordRules } from '@kesher/contracts';

/** i18n keys for the contract's five rules, in the contract's order (length, upper, lower, digit, special). */
const ruleKeys = ['Length', 'Upper', 'Lower', 'Digit', 'Special'] as const;

export interface PasswordCheck {
  key: (typeof ruleKeys)[number];
  met: boolean;
}

export function checkPassword(password: string): PasswordCheck[] {
  return passwordRules.map((rule, i) => ({ key: ruleKeys[i]!, met: rule.test(password) }));
}

/** Spec §5: the share of rules met — 100 % strong, ≥ 66 % medium, ≥ 33 % weak, else very weak. */
export function strengthOf(checks: PasswordCheck[]) {
  const percent = Math.round((checks.filter((c) => c.met).length / checks.length) * 100);
  const level = percent === 100 ? 'Strong' : percent >= 66 ? 'Medium' : percent >= 33 ? 'Weak' : 'VeryWeak';
  return { percent, level } as const;
}

/** Only the first failing rule is shown as an error. */
export const firstFailing = (checks: PasswordCheck[]) => checks.find((c) => !c.met)?.key ?? null;
