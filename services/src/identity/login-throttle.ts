/**
 * Brute-force protection for sign-in: after `maxFailures` failed attempts for one e-mail, or from one
 * address, within `windowMs`, further attempts are refused until the window has passed. A success
 * clears the e-mail's count. Kept in memory: one API process guards itself; behind a load balancer,
 * sticky routing or a shared store would be needed (noted in docs/identity.md).
 */
export function createLoginThrottle(options: { maxFailures?: number; windowMs?: number; now?: () => number } = {}) {
  const maxFailures = options.maxFailures ?? 5;
  const windowMs = options.windowMs ?? 15 * 60_000;
  const now = options.now ?? Date.now;
  const failures = new Map<string, number[]>();

  const recent = (key: string) => {
    const cutoff = now() - windowMs;
    const kept = (failures.get(key) ?? []).filter((t) => t > cutoff);
    if (kept.length) failures.set(key, kept);
    else failures.delete(key);
    return kept;
  };

  return {
    isBlocked: (email: string, ip: string) => recent(`e:${email}`).length >= maxFailures || recent(`i:${ip}`).length >= maxFailures * 4,
    recordFailure(email: string, ip: string) {
      for (const key of [`e:${email}`, `i:${ip}`]) failures.set(key, [...recent(key), now()]);
    },
    recordSuccess: (email: string) => void failures.delete(`e:${email}`),
  };
}
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
