import type { ComplexityEstimator } from 'graphql-query-complexity/cjs';

/** Cost of a connection field: its selection once per item it may return (first/last, else the default page size). */
export const connectionCost =
  (defaultSize: number): ComplexityEstimator =>
  ({ args, childComplexity }) =>
    1 + childComplexity * Math.max(1, Number(args.first ?? args.last ?? defaultSize) || 0);

/** Cost of a field taking a list of ids: its selection once per id. */
export const perIdCost: ComplexityEstimator = ({ args, childComplexity }) =>
  1 + childComplexity * Math.max(1, Array.isArray(args.ids) ? args.ids.length : 1);
