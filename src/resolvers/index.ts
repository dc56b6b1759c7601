import type { NonEmptyArray } from 'type-graphql';
import { AirtableResolver } from './airtable.resolver.js';
import { NodeResolver } from './node.resolver.js';
import { SnapshotDayResolver } from './snapshot.resolver.js';
import { UsageBaseMutations } from './usage-base.mutations.js';
import { UsageBaseResolver } from './usage-base.resolver.js';
import { ViewerResolver } from './viewer.resolver.js';

/** Every resolver class of the schema; new areas (monitoring configs, changes, webhooks) add theirs here. */
export const resolvers: NonEmptyArray<Function> = [
  NodeResolver,
  ViewerResolver,
  UsageBaseResolver,
  UsageBaseMutations,
  SnapshotDayResolver,
  AirtableResolver,
];
