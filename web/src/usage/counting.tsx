import { useMutation } from '../graphql-hooks.js';
import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage } from '../form.js';
import { formatCount } from '../format.js';
import { graphql, type ResultOf } from '../graphql.js';
import { plural } from '../names.js';
import { Link } from '../router.js';
import { TableScroll } from '../table-scroll.js';

export const USAGE_COUNTING_FIELDS = graphql(`
  fragment UsageCountingFields on UsageCounting { countOnlyWhenChanged auditWatched savedCalls days { date apiCalls carriedOver } }
`);
export type UsageCounting = ResultOf<typeof USAGE_COUNTING_FIELDS>;

const SET_COUNTING = graphql(
  `
    mutation SetUsageCounting($id: ID!, $countOnlyWhenChanged: Boolean!) {
      setUsageCounting(input: { id: $id, countOnlyWhenChanged: $countOnlyWhenChanged }) { usageBase { id counting { ...UsageCountingFields } } }
    }
  `,
  [USAGE_COUNTING_FIELDS],
);

const DAYS_SHOWN = 7;

/** What the daily count costs upstream, and skipping it on days without a change (setUsageCounting). */
export function CountingSection({ id, counting }: { id: string; counting: UsageCounting }) {
  const [update, { loading, error }] = useMutation(SET_COUNTING);
  const [saved, setSaved] = useState<boolean | null>(null);
  // The box shows what was asked for while it is saved and until the page's data, asked again after the change, has
  // it (a controlled box would flip back until then).
  const [asked, setAsked] = useState<boolean | null>(null);
  useEffect(() => {
    if (asked === counting.countOnlyWhenChanged) setAsked(null);
  }, [counting]);
  const toggle = async (countOnlyWhenChanged: boolean) => {
    setSaved(null);
    setAsked(countOnlyWhenChanged);
    const result = await update({ variables: { id, countOnlyWhenChanged } }).catch(() => null);
    if (result?.data) setSaved(countOnlyWhenChanged);
    else setAsked(null);
  };
  const spent = counting.days.reduce((sum, day) => sum + (day.apiCalls ?? 0), 0);
  return (
    <section aria-labelledby="counting-heading">
      <h2 id="counting-heading">Counting</h2>
      <div class="check">
        <input
          type="checkbox"
          id="count-only-when-changed"
          aria-describedby="count-only-when-changed-hint"
          checked={asked ?? counting.countOnlyWhenChanged}
          disabled={loading}
          onChange={(e) => toggle((e.currentTarget as HTMLInputElement).checked)}
        />
        <label for="count-only-when-changed">Count only on days with changes</label>
      </div>
      <p class="hint" id="count-only-when-changed-hint">
        The daily count is skipped on a day the audit log shows no change of the base, and the last count carried over; a full count still
        runs every 7 days.
      </p>
      {!counting.auditWatched && (
        <p class="notice" data-testid="audit-not-watched">
          This needs a monitoring config with scope “all” for this base (<Link href="/audit-log">Audit log</Link>): until there is one,
          every day is counted in full.
        </p>
      )}
      <ErrorMessage error={error} />
      {saved !== null && <p role="status">{saved ? 'Counting only on days with changes.' : 'Counting every day.'}</p>}
      <p data-testid="counting-cost">
        The last {plural(counting.days.length, 'counted day')} spent {plural(spent, 'upstream API call')}; days carried over saved{' '}
        {plural(counting.savedCalls, 'call')}.
      </p>
      {counting.days.length > 0 && (
        <TableScroll label="Calls of recent counts">
          <table data-testid="count-calls">
            <caption>Upstream API calls of the newest counts</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" class="num">
                  API calls
                </th>
              </tr>
            </thead>
            <tbody>
              {counting.days.slice(0, DAYS_SHOWN).map((day) => (
                <tr key={day.date}>
                  <td>{day.date}</td>
                  <td class="num">
                    {day.carriedOver ? 'none: carried over' : day.apiCalls === null ? 'not measured' : formatCount(day.apiCalls)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
