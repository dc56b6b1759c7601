/**
 * `timeZone` and `userLocale` of the record reads. They only shape `cellFormat=string`, which the sandbox does not
 * emulate, so they are checked and otherwise unused.
 */

const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/** Airtable's Timezone values: `utc`, `client` and IANA zone names (any case, as ICU reads them; offsets are not zones). */
export function isTimeZone(value: string): boolean {
  if (value === 'client') return true;
  if (!ZONE_NAME.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** A well-formed BCP 47 language tag (`en`, `en-gb`, `fr-FR`). */
export function isLocale(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}
