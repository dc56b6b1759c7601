import { z } from 'zod';
import { canonicalTimeZone, isValidDay } from './calendar.js';

// Field rules several inputs share. Their `.meta` is what the OpenAPI document prints for them.

/** A calendar day: exactly YYYY-MM-DD and a day that exists. */
export const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day in the form YYYY-MM-DD')
  .refine(isValidDay, 'is not a calendar day')
  .meta({ format: 'date', example: '2026-11-21' });

/** An IANA zone id (`Europe/Berlin`) or `UTC`; answered in its canonical spelling. */
export const TimeZone = z
  .string()
  .max(64)
  .transform((value, ctx) => {
    const zone = canonicalTimeZone(value);
    if (!zone) {
      ctx.addIssue({ code: 'custom', message: 'must be an IANA time zone such as Europe/Berlin, or UTC' });
      return z.NEVER;
    }
    return zone;
  })
  .meta({ type: 'string', example: 'Europe/Berlin' });

export const UpstreamBaseId = z
  .string()
  .regex(/^app[A-Za-z0-9]{14}$/, 'must be an upstream base id (app followed by 14 letters or digits)')
  .meta({ example: 'appA1b2C3d4E5f6G7' });

/** Integers in query strings: digits only, so `1.5`, `1e2` and ` 3` are rejected rather than coerced. */
export const queryInteger = (min: number, max: number, fallback: number) => {
  const range = `must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^-?\d{1,9}$/, range)
    .transform(Number)
    .pipe(z.number().int().min(min, range).max(max, range))
    .optional()
    .transform((value) => value ?? fallback)
    .meta({ type: 'integer', minimum: min, maximum: max, default: fallback });
};
