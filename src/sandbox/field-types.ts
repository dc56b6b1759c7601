export const FIELD_TYPES = new Set([
  'singleLineText',
  'email',
  'url',
  'multilineText',
  'number',
  'percent',
  'currency',
  'singleSelect',
  'multipleSelects',
  'singleCollaborator',
  'multipleCollaborators',
  'multipleRecordLinks',
  'date',
  'dateTime',
  'phoneNumber',
  'multipleAttachments',
  'checkbox',
  'formula',
  'createdTime',
  'rollup',
  'count',
  'multipleLookupValues',
  'autoNumber',
  'barcode',
  'rating',
  'richText',
  'duration',
  'lastModifiedTime',
  'button',
  'createdBy',
  'lastModifiedBy',
  'externalSyncSource',
  'aiText',
]);

/** The field docs mark these "(read only)": the API can neither create such fields nor write their cells. */
export const READ_ONLY_FIELD_TYPES = new Set([
  'aiText',
  'autoNumber',
  'button',
  'count',
  'createdBy',
  'createdTime',
  'formula',
  'lastModifiedBy',
  'lastModifiedTime',
  'multipleLookupValues',
  'rollup',
  'externalSyncSource',
]);

export const TEXT_FIELD_TYPES = new Set(['singleLineText', 'email', 'url', 'multilineText', 'phoneNumber', 'richText']);

export const NUMERIC_FIELD_TYPES = new Set(['number', 'percent', 'currency', 'rating', 'duration']);

/** Types the product refuses as a table's primary field. */
export const NON_PRIMARY_FIELD_TYPES = new Set([
  'multipleAttachments',
  'checkbox',
  'multipleRecordLinks',
  'multipleSelects',
  'singleCollaborator',
  'multipleCollaborators',
  'button',
]);
