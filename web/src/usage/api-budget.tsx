import { formatCount } from '../format.js';
import { graphql, type ResultOf } from '../graphql.js';
import { TableScroll } from '../table-scroll.js';

export const API_CALL_USAGE_FIELDS = graphql(`
  fragment ApiCallUsageFields on ApiCallUsage { month total projected byPurpose { count audit webhooks helpers } byBase { baseId calls } }
`);
export type ApiCallUsage = ResultOf<typeof API_CALL_USAGE_FIELDS>;

const PURPOSES: Array<[keyof ApiCallUsage['byPurpose'], string]> = [
  ['count', 'Usage counts'],
  ['audit', 'Audit log'],
  ['webhooks', 'Upstream webhooks'],
  ['helpers', 'Look-ups and checks'],
];
const TOP_BASES = 5;

/**
 * This month's upstream API calls: so far, at this pace by the month's end, why, and the bases that took most;
 * `names`: base names by upstream id.
 */
export function ApiBudget({ calls, names }: { calls: ApiCallUsage; names: Map<string, string> }) {
  return (
    <section class="panel" aria-labelledby="api-budget-heading">
      <h2 id="api-budget-heading">API calls this month</h2>
      <p data-testid="api-calls-total">
        {formatCount(calls.total)} upstream API calls in {calls.month} (UTC) so far; about {formatCount(calls.projected)} by the month’s end
        at this pace.
      </p>
      <TableScroll label="API calls by purpose">
        <table data-testid="api-calls-by-purpose">
          <caption>By purpose</caption>
          <tbody>
            {PURPOSES.map(([key, label]) => (
              <tr key={key}>
                <th scope="row">{label}</th>
                <td class="num">{formatCount(calls.byPurpose[key])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {calls.byBase.length > 0 && (
        <TableScroll label="API calls by base">
          <table data-testid="api-calls-by-base">
            <caption>Bases with the most calls</caption>
            <tbody>
              {calls.byBase.slice(0, TOP_BASES).map((base) => (
                <tr key={base.baseId}>
                  <th scope="row">{names.get(base.baseId) ?? base.baseId}</th>
                  <td class="num">{formatCount(base.calls)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
