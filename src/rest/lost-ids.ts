/** `lost` beside a list (schemas.ts `lostIds`): present only when some listed item is lost. */
export const lostOf = (lost: ReadonlySet<string>): { lost?: string[] } => (lost.size > 0 ? { lost: [...lost] } : {});
