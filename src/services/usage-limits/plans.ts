const GiB = 1024 ** 3;

/** The platform's plans as their limits per base (Airtable's plans page, 2026); a base may set its own numbers instead. */
export const PLANS = {
  free: { recordLimit: 1_000, storageLimitBytes: 1 * GiB },
  team: { recordLimit: 50_000, storageLimitBytes: 20 * GiB },
  business: { recordLimit: 125_000, storageLimitBytes: 100 * GiB },
  enterprise_scale: { recordLimit: 500_000, storageLimitBytes: 1_000 * GiB },
} as const;

export type PlanName = keyof typeof PLANS;
export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];
