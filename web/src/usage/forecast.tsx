import { Fragment } from 'preact';
import { formatBytes, formatCount } from '../format.js';
import { graphql, type ResultOf } from '../graphql.js';
import { plural } from '../names.js';

export const USAGE_FORECAST_FIELDS = graphql(`
  fragment UsageForecastFields on UsageForecast { metric limit current dailyGrowth reachesOn earliest latest status }
`);
export type UsageForecast = ResultOf<typeof USAGE_FORECAST_FIELDS>;

/** What one forecast says, in a sentence. */
function describe(forecast: UsageForecast): string {
  const format = forecast.metric === 'RECORDS' ? formatCount : formatBytes;
  switch (forecast.status) {
    case 'NO_LIMIT':
      return 'No limit';
    case 'NOT_ENOUGH_HISTORY':
      return 'Not enough history yet: a forecast needs 7 counted days in the last 30';
    case 'NOT_WITHIN_A_YEAR':
      return 'Not within a year at the recent pace';
    case 'OK': {
      const { current, limit, reachesOn, earliest, latest, dailyGrowth } = forecast;
      if (current !== null && limit !== null && current >= limit) return `Limit reached: ${format(current)} of ${format(limit)}`;
      const range = earliest && latest ? ` (between ${earliest} and ${latest})` : '';
      const growth =
        dailyGrowth === null ? '' : forecast.metric === 'RECORDS' ? plural(Number(dailyGrowth.toFixed(2)), 'record') : format(dailyGrowth);
      const pace = growth && `, growing ${growth} a day`;
      return `Full around ${reachesOn}${range}${pace}`;
    }
  }
}

/** When each limit is reached at the pace of the last 30 days. */
export function ForecastSection({ forecasts }: { forecasts: UsageForecast[] }) {
  return (
    <section aria-labelledby="forecast-heading">
      <h2 id="forecast-heading">Forecast</h2>
      <dl class="facts" data-testid="forecast">
        {forecasts.map((forecast) => (
          <Fragment key={forecast.metric}>
            <dt>{forecast.metric === 'RECORDS' ? 'Records' : 'Attachment storage'}</dt>
            <dd data-metric={forecast.metric}>{describe(forecast)}</dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}
