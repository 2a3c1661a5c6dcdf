/**
 * Tests that need a real service (Postgres, Kafka, EventStoreDB) ask this gate first. In CI a missing
 * service is a failure — the suite must not pass without the real parts. Outside CI the suite is marked
 * as not run and the reason is printed loudly, never silently swallowed.
 */
export interface ServiceAvailability {
  available: boolean;
  reason?: string;
}

export const isCi = () => process.env.CI === 'true' || process.env.CI === '1';

export async function gateService(
  service: string,
  probe: () => Promise<void>,
  { requiredInCi = true }: { requiredInCi?: boolean } = {},
): Promise<ServiceAvailability> {
  try {
    await probe();
    return { available: true };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (isCi() && requiredInCi) {
      throw new Error(`${service} is required in CI but could not be reached: ${reason}`);
    }
    const banner = `\n!!! ${service} NOT AVAILABLE — its tests are NOT RUN: ${reason}\n`;
    console.warn(banner);
    return { available: false, reason };
  }
}
