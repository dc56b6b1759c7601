/**
 * Webhook payloads carry cells in the platform's "V2" format; the mirror keeps them as its REST API returns them
 * with `returnFieldsByFieldId`: selects by name, linked records by id, lookups as a flat list. Other types are the
 * same in both. The field's type decides; an unknown field is converted by the value's shape.
 */
export function toRestCells(cells: Record<string, unknown>, types: ReadonlyMap<string, string>): Record<string, unknown> {
  const converted: Record<string, unknown> = {};
  for (const [fieldId, value] of Object.entries(cells)) converted[fieldId] = value === null ? null : toRestCell(value, types.get(fieldId));
  return converted;
}

function toRestCell(value: unknown, type: string | undefined): unknown {
  switch (type) {
    case 'singleSelect':
      return choiceName(value);
    case 'multipleSelects':
      return Array.isArray(value) ? value.map(choiceName) : value;
    case 'multipleRecordLinks':
      return Array.isArray(value) ? value.map(linkedId) : value;
    case 'multipleLookupValues':
      return lookupValues(value);
    case undefined:
      return byShape(value);
    default:
      return value;
  }
}

function byShape(value: unknown): unknown {
  if (isChoice(value)) return value.name;
  if (Array.isArray(value) && value.length > 0 && value.every(isChoice)) return value.map(choiceName);
  if (Array.isArray(value) && value.length > 0 && value.every(isLink)) return value.map(linkedId);
  return lookupValues(value);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isChoice = (value: unknown): value is { id: string; name: string } =>
  isObject(value) && typeof value.name === 'string' && typeof value.id === 'string' && (value.id === '' || value.id.startsWith('sel'));
const isLink = (value: unknown): value is { id: string } =>
  isObject(value) && typeof value.id === 'string' && value.id.startsWith('rec') && !('email' in value);

const choiceName = (value: unknown) => (isObject(value) && typeof value.name === 'string' ? value.name : value);
const linkedId = (value: unknown) => (isObject(value) && typeof value.id === 'string' ? value.id : value);

function lookupValues(value: unknown): unknown {
  if (!isObject(value) || !isObject(value.valuesByLinkedRecordId) || !Array.isArray(value.linkedRecordIds)) return value;
  const byRecord = value.valuesByLinkedRecordId;
  return value.linkedRecordIds.flatMap((id) => {
    const values = byRecord[String(id)];
    return Array.isArray(values) ? values : values === undefined ? [] : [values];
  });
}
