import { useMutation } from '../graphql-hooks.js';
import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage, Field, inputValue, selectValue, useSubmit } from '../form.js';
import { formatBytes, formatCount } from '../format.js';
import { graphql, type ResultOf, type SchemaType } from '../graphql.js';
import { USAGE_FORECAST_FIELDS } from './forecast.js';

type UsagePlan = SchemaType<'UsagePlan'>;

export const USAGE_LIMITS_FIELDS = graphql(`
  fragment UsageLimitsFields on UsageLimits { plan recordLimit storageLimitBytes thresholds }
`);
export type UsageLimits = ResultOf<typeof USAGE_LIMITS_FIELDS>;

// The forecast is asked again with the limits: it is measured against them.
const SET_LIMITS = graphql(
  `
    mutation SetUsageLimits($input: SetUsageLimitsInput!) {
      setUsageLimits(input: $input) { usageBase { id limits { ...UsageLimitsFields } forecast { ...UsageForecastFields } } }
    }
  `,
  [USAGE_LIMITS_FIELDS, USAGE_FORECAST_FIELDS],
);

const GiB = 1024 ** 3;

/** The choices of the plan picker; a named plan's numbers are the API's plan table (UsagePlan in schema.graphql). */
const PLANS: Array<[UsagePlan, string]> = [
  ['FREE', 'Free: 1,000 records, 1 GiB'],
  ['TEAM', 'Team: 50,000 records, 20 GiB'],
  ['BUSINESS', 'Business: 125,000 records, 100 GiB'],
  ['ENTERPRISE_SCALE', 'Enterprise Scale: 500,000 records, 1,000 GiB'],
  ['CUSTOM', 'Custom limits'],
];
const PLAN_NAMES: Record<UsagePlan, string> = {
  FREE: 'Free',
  TEAM: 'Team',
  BUSINESS: 'Business',
  ENTERPRISE_SCALE: 'Enterprise Scale',
  CUSTOM: 'Custom limits',
};

/** "80, 95, 100" → [80, 95, 100]; the API checks the range and repeats. */
function parseThresholds(text: string): number[] {
  const values = text
    .split(/[\s,%]+/)
    .filter(Boolean)
    .map(Number);
  if (!values.length || !values.every(Number.isInteger)) throw new Error('Alert thresholds: whole percents, separated by commas');
  return values;
}

const listPercents = (values: number[]) => values.map((value) => `${value} %`).join(', ');

/** The base's plan or limits of its own and the alert thresholds, and a form to change them (setUsageLimits). */
export function LimitsSection({ id, limits }: { id: string; limits: UsageLimits }) {
  const [plan, setPlan] = useState<UsagePlan | ''>(limits.plan ?? '');
  const [records, setRecords] = useState(limits.recordLimit?.toString() ?? '');
  const [storage, setStorage] = useState(limits.storageLimitBytes ? String(Number((limits.storageLimitBytes / GiB).toFixed(3))) : '');
  const [thresholds, setThresholds] = useState(limits.thresholds.join(', '));
  const [saved, setSaved] = useState(false);
  // The saved limits as the mutation answered them, shown until the page's own query brings them too.
  const [answered, setAnswered] = useState<UsageLimits>();
  useEffect(() => setAnswered(undefined), [limits]);
  const shown = answered ?? limits;
  const [update] = useMutation(SET_LIMITS);
  const { busy, error, submit } = useSubmit(async () => {
    setSaved(false);
    const own =
      plan === 'CUSTOM'
        ? { recordLimit: records ? Number(records) : null, storageLimitBytes: storage ? Math.round(Number(storage) * GiB) : null }
        : {};
    const { data } = await update({ variables: { input: { id, plan: plan || null, ...own, thresholds: parseThresholds(thresholds) } } });
    setAnswered(data?.setUsageLimits.usageBase.limits);
    setSaved(true);
  });
  return (
    <section aria-labelledby="limits-heading">
      <h2 id="limits-heading">Limits</h2>
      <dl class="facts" data-testid="limits">
        <dt>Plan</dt>
        <dd>{shown.plan ? PLAN_NAMES[shown.plan] : 'None'}</dd>
        <dt>Records</dt>
        <dd>{shown.recordLimit === null ? 'no limit' : formatCount(shown.recordLimit)}</dd>
        <dt>Attachment storage</dt>
        <dd>{shown.storageLimitBytes === null ? 'no limit' : formatBytes(shown.storageLimitBytes)}</dd>
        <dt>Alerts at</dt>
        <dd>{listPercents(shown.thresholds)} of each limit</dd>
      </dl>
      <form onSubmit={submit} class="stacked">
        <div class="field">
          <label for="limits-plan">Plan</label>
          <select id="limits-plan" value={plan} onChange={(e) => setPlan(selectValue(e) as UsagePlan | '')}>
            <option value="">No limits</option>
            {PLANS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        {plan === 'CUSTOM' && (
          <>
            <Field
              label="Record limit"
              type="number"
              min={1}
              step={1}
              inputMode="numeric"
              hint="Empty: no record limit."
              value={records}
              onInput={(e) => setRecords(inputValue(e))}
            />
            <Field
              label="Attachment storage limit (GiB)"
              type="number"
              min={0.001}
              step="any"
              hint="Empty: no storage limit."
              value={storage}
              onInput={(e) => setStorage(inputValue(e))}
            />
          </>
        )}
        <Field
          label="Alert thresholds (%)"
          required
          hint="Percents of each limit at which an alert is recorded, separated by commas (1–1000, at most 10)."
          value={thresholds}
          onInput={(e) => setThresholds(inputValue(e))}
        />
        <div>
          <button type="submit" disabled={busy}>
            Save limits
          </button>
        </div>
      </form>
      <ErrorMessage error={error} />
      {saved && <p role="status">Limits saved.</p>}
    </section>
  );
}
