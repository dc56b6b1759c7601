/** An error rendered with Airtable's own status and body, never the app's error format. */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly body: object,
  ) {
    super(`Sandbox ${status}: ${JSON.stringify(body)}`);
    this.name = 'SandboxError';
  }
}

export type RateLimitBodyShape = 'error' | 'errors';

export const PARAMETER_VALIDATION_MESSAGE = 'Invalid request: parameter validation failed. Check your request data.';
export const RATE_LIMIT_MESSAGE = 'Rate limit exceeded. Please try again later';
const MODEL_NOT_FOUND_MESSAGE =
  'Invalid permissions, or the requested model was not found. Check that both your user and your token have the required permissions, and that the model names and/or ids are correct.';

export function airtableError(status: number, type: string, message?: string): SandboxError {
  return new SandboxError(status, { error: message === undefined ? { type } : { type, message } });
}

export const authenticationRequired = () => airtableError(401, 'AUTHENTICATION_REQUIRED', 'Authentication required');
export const modelNotFound = () => airtableError(403, 'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND', MODEL_NOT_FOUND_MESSAGE);
export const routeNotFound = () => new SandboxError(404, { error: 'NOT_FOUND' });
export const recordNotFound = (recordId: string) => airtableError(404, 'NOT_FOUND', `Could not find record ${recordId}`);

export const invalidRequest = (message = PARAMETER_VALIDATION_MESSAGE) => airtableError(422, 'INVALID_REQUEST_UNKNOWN', message);
export const malformedJson = () => airtableError(400, 'INVALID_REQUEST_UNKNOWN', 'Invalid request: the request body is not valid JSON.');
export const requestTooLarge = () => airtableError(413, 'REQUEST_TOO_LARGE', 'Request body is too large.');
export const serverError = () => airtableError(500, 'SERVER_ERROR', 'Server encountered an unexpected error.');

export const unknownFieldName = (name: string) => airtableError(422, 'UNKNOWN_FIELD_NAME', `Unknown field name: "${name}"`);
export const invalidValueForColumn = (fieldName: string, value: unknown) =>
  airtableError(422, 'INVALID_VALUE_FOR_COLUMN', `Field "${fieldName}" cannot accept value ${preview(value)}`);
export const computedFieldWrite = (fieldName: string) =>
  airtableError(422, 'INVALID_VALUE_FOR_COLUMN', `Field "${fieldName}" cannot accept a value because the field is computed`);
export const invalidSelectOption = (value: string) =>
  airtableError(422, 'INVALID_MULTIPLE_CHOICE_OPTIONS', `Insufficient permissions to create new select option ""${value}""`);

export const invalidRecords = (message: string) => airtableError(422, 'INVALID_RECORDS', message);
export const tooManyRecords = (verb: 'created' | 'updated', count: number) =>
  invalidRecords(`A maximum of 10 records can be ${verb} per request but you have provided ${count}.`);
export const invalidDeleteIds = () => invalidRecords('"records" must be an array of up to 10 record IDs.');
export const rowDoesNotExist = (recordId: string) =>
  airtableError(422, 'ROW_DOES_NOT_EXIST', `Record ID ${recordId} does not exist in this table`);

export const invalidOffset = (offset: string) => airtableError(422, 'INVALID_OFFSET_VALUE', `The value of offset ${offset} is invalid`);
export const iteratorNotAvailable = () => airtableError(422, 'LIST_RECORDS_ITERATOR_NOT_AVAILABLE');
export const invalidFilterByFormula = (formula: string) =>
  airtableError(
    422,
    'INVALID_FILTER_BY_FORMULA',
    `The formula for filtering records is invalid: the sandbox supports only an empty formula, got ${preview(formula)}`,
  );
export const viewNotFound = (view: string) => airtableError(422, 'VIEW_NAME_NOT_FOUND', `Could not find view ${view}`);

/** Error types below were seen from the live meta API in public code; their messages are approximations. */
export const duplicateFieldName = (name: string) =>
  airtableError(422, 'DUPLICATE_OR_EMPTY_FIELD_NAME', `Field name "${name}" is empty or already used in this table`);
export const duplicateTableName = (name: string) =>
  airtableError(422, 'DUPLICATE_TABLE_NAME', `A table named "${name}" already exists in this base`);
export const unsupportedFieldType = (message: string) => airtableError(422, 'UNSUPPORTED_FIELD_TYPE_FOR_CREATE', message);
export const invalidFieldOptions = (message: string) => airtableError(422, 'INVALID_FIELD_TYPE_OPTIONS_FOR_CREATE', message);

export function rateLimited(shape: RateLimitBodyShape): SandboxError {
  return shape === 'errors'
    ? new SandboxError(429, { errors: [{ error: 'RATE_LIMIT_REACHED', message: RATE_LIMIT_MESSAGE }] })
    : airtableError(429, 'RATE_LIMIT_REACHED', RATE_LIMIT_MESSAGE);
}

export function injectedError(status: 429 | 500 | 502 | 503, rateLimitShape: RateLimitBodyShape): SandboxError {
  switch (status) {
    case 429:
      return rateLimited(rateLimitShape);
    case 500:
      return serverError();
    case 502:
      return airtableError(502, 'SERVER_ERROR', 'Bad gateway: the servers are restarting or unreachable. It is safe to retry the request.');
    case 503:
      return airtableError(
        503,
        'RETRIABLE_ERROR',
        'Server encountered an error while processing the request. It is safe to retry the request',
      );
  }
}

export const invalidControlSettings = (message: string) => airtableError(400, 'INVALID_REQUEST_UNKNOWN', message);

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}
