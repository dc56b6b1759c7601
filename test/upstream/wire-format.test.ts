import { describe, expect, it } from 'vitest';
import { parseErrorBody } from '../../src/upstream/error-body.js';
import { toQueryString } from '../../src/upstream/query-string.js';
import { parseRetryAfter } from '../../src/upstream/retry-policy.js';

describe(toQueryString.name, () => {
  it('encodes arrays of scalars as key[] and arrays of objects as key[i][prop], like airtable.js', () => {
    const query = toQueryString({
      fields: ['Name', 'Due date'],
      sort: [{ field: 'Name', direction: 'desc' }, { field: 'Size' }],
      pageSize: 100,
      offset: undefined,
    });

    expect(query).toBe(
      'fields%5B%5D=Name&fields%5B%5D=Due+date' +
        '&sort%5B0%5D%5Bfield%5D=Name&sort%5B0%5D%5Bdirection%5D=desc&sort%5B1%5D%5Bfield%5D=Size&pageSize=100',
    );
    const decoded = new URLSearchParams(query);
    expect(decoded.getAll('fields[]')).toEqual(['Name', 'Due date']);
    expect(decoded.get('sort[0][direction]')).toBe('desc');
  });
});

describe(parseErrorBody.name, () => {
  it.each([
    ['{"error":{"type":"RATE_LIMIT_REACHED","message":"Slow down"}}', 'RATE_LIMIT_REACHED', 'Slow down'],
    ['{"errors":[{"error":"RATE_LIMIT_REACHED","message":"Slow down"}]}', 'RATE_LIMIT_REACHED', 'Slow down'],
    ['{"error":"NOT_FOUND"}', 'NOT_FOUND', undefined],
    ['{"error":{"type":"LIST_RECORDS_ITERATOR_NOT_AVAILABLE"}}', 'LIST_RECORDS_ITERATOR_NOT_AVAILABLE', undefined],
    ['<html>Bad gateway</html>', undefined, undefined],
    ['', undefined, undefined],
    ['[1,2]', undefined, undefined],
  ])('reads %s', (body, type, message) => {
    expect(parseErrorBody(body)).toEqual({ type, message });
  });
});

describe(parseRetryAfter.name, () => {
  it('reads seconds and HTTP dates, and ignores garbage', () => {
    const now = Date.parse('2024-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('Mon, 01 Jan 2024 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
