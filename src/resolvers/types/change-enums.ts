import type { ChangeEventType, ChangeKind, ChangeSource, MonitoringScope } from '../../services/audit/change-event.js';
import type { WebhookEvent } from '../../services/webhooks/webhook-rules.js';
import { serviceEnum } from './graphql-enum.js';

const CHANGE_EVENT_DESCRIPTIONS: Record<ChangeEventType, string> = {
  record_create: 'A record was created; `after` holds its cells by field id',
  record_update: 'Cells of a record changed; `fieldIds` lists the fields, `before` and `after` their values',
  record_delete: 'A record was deleted',
  table_create: 'A table was created; `after` holds its definition with its fields',
  table_update: 'A table’s name or description changed; `before` and `after` hold the changed metadata',
  table_delete: 'A table was deleted; `before` holds its last known name, when the service knew it',
  column_create: 'A field was created; `recordId` holds the field id, `after` its definition',
  column_update: 'A field’s definition changed (name, type, options); `before` and `after` hold what changed',
  column_delete: 'A field was deleted; `recordId` holds the field id',
};

export const ChangeEventTypeEnum = serviceEnum<ChangeEventType>(
  'ChangeEventType',
  'What an upstream change did, to a record, a table or a field (column). REST, webhook bodies (`type`) and the Changes table spell the values in lower case (`record_update`).',
  CHANGE_EVENT_DESCRIPTIONS,
);

export const WebhookEventEnum = serviceEnum<WebhookEvent>(
  'WebhookEvent',
  'What a webhook forwards: one change event type of its base, or the usage alerts of a tracked base. REST and webhook bodies (`type`) spell the values in lower case (`usage_threshold`).',
  {
    ...CHANGE_EVENT_DESCRIPTIONS,
    usage_threshold:
      'A daily count of a tracked base of the account crossed one of its usage thresholds (a percent of its record or storage limit)',
  },
);

export const ChangeKindEnum = serviceEnum<ChangeKind>(
  'ChangeKind',
  'What a change touched: data or structure. REST and the Changes table spell the values in lower case (`record`).',
  {
    record: 'A record’s cells: the RECORD_* event types',
    schema: 'A table or a field: the TABLE_* and COLUMN_* event types',
  },
);

export const ChangeSourceEnum = serviceEnum<ChangeSource>(
  'ChangeSource',
  'Where an upstream change came from, as the upstream reports it. REST, webhook bodies and the Changes table spell the values in camelCase (`formSubmission`).',
  {
    client: 'A user in the upstream’s own app (web, desktop or mobile)',
    automation: 'An automation of the base',
    formSubmission: 'A submitted form view',
    formPageSubmission: 'A submitted form page of an interface',
    publicApi: 'A call to the upstream’s Web API (a personal access token or an OAuth integration)',
    publicApiCall: 'An API call the upstream reports as `publicApiCall`, apart from PUBLIC_API',
    system: 'The upstream itself, without a user’s action',
    sync: 'A sync from another base or an outside source',
    anonymousUser: 'Someone who is not signed in (a shared form or view)',
    unknown: 'A source the upstream did not name, or one this service does not know',
  },
);

export const MonitoringScopeEnum = serviceEnum<MonitoringScope>(
  'MonitoringScope',
  'Which changes a monitoring config logs. REST spells the values in lower case (`records_only`).',
  {
    all: 'Record and schema changes (the default)',
    schema_only: 'Table and field changes only (kind SCHEMA)',
    records_only: 'Record changes only (kind RECORD)',
  },
);
