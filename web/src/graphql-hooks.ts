import { type AnyVariables, type Client, type CombinedError, createRequest, type DocumentInput } from '@urql/core';
import type { GraphQLError } from '@0no-co/graphql.web';
import { createContext } from 'preact';
import { useContext, useEffect, useMemo, useRef, useState } from 'preact/hooks';

// The few hooks the pages use, on urql's client: queries (polled, refetched, skipped, updated in place), mutations
// and subscriptions, with the error shapes the pages show.

export const GraphqlClientContext = createContext<Client | null>(null);

const useClient = (): Client => {
  const client = useContext(GraphqlClientContext);
  if (!client) throw new Error('a GraphQL hook outside the signed-in pages');
  return client;
};

/** The answer's GraphQL errors, their messages as the message (one a line). */
export class GraphqlErrors extends Error {
  constructor(readonly errors: readonly GraphQLError[]) {
    super(errors.map((e) => e.message).join('\n'));
  }
}

const failure = (error: CombinedError | undefined): Error | undefined =>
  error && (error.graphQLErrors.length > 0 ? new GraphqlErrors(error.graphQLErrors) : (error.networkError ?? error));

/** The queries shown, per client: what a page refetches after an event that changes what it shows. */
const shown = new WeakMap<Client, Set<() => Promise<unknown>>>();

/** Asks again for every query shown (Apollo's `refetchQueries({ include: 'active' })`). */
export function useRefetchShown(): () => Promise<unknown> {
  const client = useClient();
  return () => Promise.all([...(shown.get(client) ?? [])].map((refetch) => refetch()));
}

interface QueryOptions<V> {
  variables?: V;
  skip?: boolean;
  pollInterval?: number;
  fetchPolicy?: 'cache-first' | 'network-only' | 'cache-and-network';
  /** 'all': partial data beside the errors; by default data only without errors. */
  errorPolicy?: 'none' | 'all';
}

interface QueryState<D> {
  key: number | null;
  data?: D;
  error?: Error;
  loading: boolean;
}

export function useQuery<D, V extends AnyVariables>(query: DocumentInput<D, V>, options: QueryOptions<V> = {}) {
  const client = useClient();
  const { skip = false, fetchPolicy = 'cache-first', errorPolicy = 'none' } = options;
  const fresh = createRequest(query, (options.variables ?? {}) as V);
  const request = useMemo(() => fresh, [fresh.key]);
  const [state, setState] = useState<QueryState<D>>({ key: null, loading: !skip });
  const [polling, setPolling] = useState(options.pollInterval ?? 0);
  useEffect(() => setPolling(options.pollInterval ?? 0), [options.pollInterval]);

  const refetch = useMemo(() => () => client.executeQuery(request, { requestPolicy: 'network-only' }).toPromise(), [client, request]);
  useEffect(() => {
    if (skip) return void setState({ key: null, loading: false });
    setState((now) => (now.key === request.key ? now : { key: request.key, loading: true }));
    const all = shown.get(client) ?? new Set();
    shown.set(client, all.add(refetch));
    const results = client.executeQuery(request, { requestPolicy: fetchPolicy }).subscribe((result) => {
      const error = failure(result.error);
      const data = error && errorPolicy === 'none' ? undefined : (result.data ?? undefined);
      setState({ key: request.key, data, error, loading: false });
    });
    return () => {
      all.delete(refetch);
      results.unsubscribe();
    };
  }, [client, request, skip]);
  useEffect(() => {
    if (skip || !polling) return;
    const timer = setInterval(() => void refetch(), polling);
    return () => clearInterval(timer);
  }, [refetch, skip, polling]);

  const current = state.key === request.key;
  return {
    data: current ? state.data : undefined,
    error: current ? state.error : undefined,
    loading: !skip && (!current || state.loading),
    refetch,
    startPolling: setPolling,
    stopPolling: useMemo(() => () => setPolling(0), []),
    /** Changes the shown answer in place (a pushed change prepended), until the next answer. */
    updateQuery: (update: (previous: D | undefined, info: { complete: boolean; previousData: D }) => D | undefined) =>
      setState((now) => ({
        ...now,
        data: update(now.data, { complete: now.data !== undefined, previousData: now.data as D }) ?? now.data,
      })),
  };
}

interface MutationState<D> {
  loading: boolean;
  data?: D;
  error?: Error;
}

/**
 * A mutation to run, and how its last run went. The run rejects on an error, as Apollo's did. `additionalTypenames`:
 * types the answer changes without naming them (their cached queries are dropped, the shown ones asked again).
 */
export function useMutation<D, V extends AnyVariables>(mutation: DocumentInput<D, V>, options: { additionalTypenames?: string[] } = {}) {
  const client = useClient();
  const [state, setState] = useState<MutationState<D>>({ loading: false });
  const run = async ({ variables }: { variables?: V } = {}): Promise<{ data?: D }> => {
    setState({ loading: true });
    const result = await client.mutation(mutation, (variables ?? {}) as V, options).toPromise();
    const error = failure(result.error);
    setState({ loading: false, data: error ? undefined : (result.data ?? undefined), error });
    if (error) throw error;
    return { data: result.data ?? undefined };
  };
  return [run, state] as const;
}

interface SubscriptionOptions<D, V> {
  variables?: V;
  skip?: boolean;
  onData: (event: { data: { data?: D } }) => void;
}

/** A subscription while the component shows (and `skip` is not set); each event to `onData`. */
export function useSubscription<D, V extends AnyVariables>(subscription: DocumentInput<D, V>, options: SubscriptionOptions<D, V>) {
  const client = useClient();
  const onData = useRef(options.onData);
  onData.current = options.onData;
  const fresh = createRequest(subscription, (options.variables ?? {}) as V);
  const request = useMemo(() => fresh, [fresh.key]);
  useEffect(() => {
    if (options.skip) return;
    const events = client.executeSubscription(request).subscribe((result) => onData.current({ data: { data: result.data ?? undefined } }));
    return () => events.unsubscribe();
  }, [client, request, options.skip]);
}
