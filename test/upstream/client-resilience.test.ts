import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UpstreamClient } from '../../src/upstream/client.js';
import { resetRateLimiters } from '../../src/upstream/rate-limiter.js';
import type { UpstreamClientOptions } from '../../src/upstream/types.js';
import { sendJson, startRawUpstream, type RawHandler, type RawUpstream } from './raw-upstream.js';
import { failureOf } from '../support/upstream-failure.js';

const TOKEN = 'patSecretToken.0123456789';
const SCHEMA = { tables: [{ id: 'tblA', name: 'A', primaryFieldId: 'fldA', fields: [] }] };

let upstream: RawUpstream | undefined;

beforeEach(() => resetRateLimiters());
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

async function clientFor(handler: RawHandler, options: Partial<UpstreamClientOptions> = {}) {
  upstream = await startRawUpstream(handler);
  const client = new UpstreamClient({
    baseUrl: upstream.baseUrl,
    token: TOKEN,
    maxRetries: 3,
    retryBaseDelayMs: 5,
    lockoutMs: 50,
    timeoutMs: 2_000,
    ...options,
  });
  return { client, requests: upstream.requests };
}

describe(UpstreamClient.name, () => {
  it('retries a 500 with a non-JSON body and then succeeds', async () => {
    const { client, requests } = await clientFor((_request, response, index) => {
      if (index === 0) {
        response.writeHead(500, { 'Content-Type': 'text/html' });
        response.end('<html>upstream exploded</html>');
      } else {
        sendJson(response, 200, SCHEMA);
      }
    });

    const tables = await client.getBaseSchema('appA');

    expect(tables.map((table) => table.id)).toEqual(['tblA']);
    expect(requests).toHaveLength(2);
    expect(client.stats).toEqual({ requests: 2, retries: 1, rateLimited: 0 });
  });

  it('fails at once, sending nothing, with a token that cannot be an HTTP header value', async () => {
    const { client, requests } = await clientFor((_request, response) => sendJson(response, 200, SCHEMA), { token: 'pat✓' });

    const failure = await failureOf(client.getBaseSchema('appA'));

    expect(failure).toMatchObject({ code: 'upstream_error', upstreamType: 'INVALID_TOKEN' });
    expect(requests).toHaveLength(0);
    expect(client.stats.retries).toBe(0);
  });

  it('waits for Retry-After on a 503 before retrying', async () => {
    const { client, requests } = await clientFor((_request, response, index) => {
      if (index === 0) sendJson(response, 503, { error: { type: 'RETRIABLE_ERROR' } }, { 'Retry-After': '1' });
      else sendJson(response, 200, SCHEMA);
    });

    await client.getBaseSchema('appA');

    expect(requests).toHaveLength(2);
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('gives up with a 502 UpstreamRequestError after maxRetries when the upstream stays down', async () => {
    const { client, requests } = await clientFor((_request, response) => {
      sendJson(response, 503, { error: { type: 'RETRIABLE_ERROR', message: 'try later' } });
    });

    const error = await failureOf(client.getBaseSchema('appA'));

    expect(requests).toHaveLength(4);
    expect(error.status).toBe(502);
    expect(error.code).toBe('upstream_error');
    expect(error.upstreamStatus).toBe(503);
    expect(error.upstreamType).toBe('RETRIABLE_ERROR');
    expect(error.attempts).toBe(4);
    expect(client.stats.retries).toBe(3);
  });

  it('times out an attempt that never answers and retries it', async () => {
    const { client, requests } = await clientFor(
      (_request, response, index) => {
        if (index > 0) sendJson(response, 200, SCHEMA);
      },
      { timeoutMs: 150 },
    );

    await client.getBaseSchema('appA');

    expect(requests).toHaveLength(2);
  });

  it('reports a timeout once every attempt has timed out', async () => {
    const { client } = await clientFor(() => undefined, { timeoutMs: 100, maxRetries: 1 });

    const error = await failureOf(client.getBaseSchema('appA'));

    expect(error.upstreamType).toBe('TIMEOUT');
    expect(error.upstreamStatus).toBeUndefined();
    expect(error.attempts).toBe(2);
  });

  it('fails at once on a 403 and keeps the upstream type', async () => {
    const { client, requests } = await clientFor((_request, response) => {
      const error = { type: 'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND', message: 'Invalid permissions' };
      sendJson(response, 403, { error });
    });

    const error = await failureOf(client.getBaseSchema('appA'));

    expect(requests).toHaveLength(1);
    expect(error.upstreamStatus).toBe(403);
    expect(error.upstreamType).toBe('INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND');
    expect(error.attempts).toBe(1);
  });

  it('reads a string-valued error body', async () => {
    const { client } = await clientFor((_request, response) => sendJson(response, 404, { error: 'NOT_FOUND' }));

    const error = await failureOf(client.createField('appA', 'tblA', { name: 'X', type: 'singleLineText' }));

    expect(error.upstreamStatus).toBe(404);
    expect(error.upstreamType).toBe('NOT_FOUND');
  });

  it('does not repeat a create after a 500, since the records may exist already', async () => {
    const { client, requests } = await clientFor((_request, response) => {
      sendJson(response, 500, { error: { type: 'SERVER_ERROR' } });
    });

    const error = await failureOf(client.createRecords('appA', 'tblA', [{ fields: { Name: 'a' } }]));

    expect(requests).toHaveLength(1);
    expect(error.upstreamStatus).toBe(500);
  });

  it('repeats a create refused with 503', async () => {
    const { client, requests } = await clientFor((request, response, index) => {
      if (index === 0) return sendJson(response, 503, { error: { type: 'RETRIABLE_ERROR' } });
      const { records } = JSON.parse(request.body) as { records: { fields: object }[] };
      sendJson(response, 200, {
        records: records.map((record, i) => ({ id: `rec${i}`, createdTime: '2024-01-01T00:00:00.000Z', ...record })),
      });
    });

    const created = await client.createRecords('appA', 'tblA', [{ fields: { Name: 'a' } }]);

    expect(requests).toHaveLength(2);
    expect(created).toEqual([{ id: 'rec0', createdTime: '2024-01-01T00:00:00.000Z', fields: { Name: 'a' } }]);
  });

  it('keeps the token, the query string and the upstream text out of the error message', async () => {
    const { client, requests } = await clientFor((_request, response) => {
      sendJson(response, 422, { error: { type: 'INVALID_FILTER_BY_FORMULA', message: 'The formula is invalid' } });
    });

    const pages = client.listRecordPages('appA', 'tblA', { filterByFormula: "{Secret}='s3cr3t'" });
    const error = await failureOf(pages.next());

    expect(requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(error.message).toBe('The upstream platform failed (422 INVALID_FILTER_BY_FORMULA) after 1 attempt');
    expect(error.logContext).toMatchObject({ path: '/v0/appA/tblA', upstreamMessage: 'The formula is invalid' });
    expect(JSON.stringify(error.logContext)).not.toContain('s3cr3t');
    expect(error.message).not.toContain(TOKEN);
    expect(error.message).not.toContain('?');
    expect(error.message).not.toContain('s3cr3t');
    expect(error.upstreamType).toBe('INVALID_FILTER_BY_FORMULA');
  });

  it('rejects a 200 whose body does not have the documented shape', async () => {
    const { client, requests } = await clientFor((_request, response) => sendJson(response, 200, { tables: 'no' }));

    const error = await failureOf(client.getBaseSchema('appA'));

    expect(requests).toHaveLength(1);
    expect(error.upstreamType).toBe('INVALID_RESPONSE');
  });

  it('fails with CONNECTION_ERROR when nothing listens', async () => {
    const { client } = await clientFor(() => undefined, { maxRetries: 1 });
    await upstream?.close();
    upstream = undefined;

    const error = await failureOf(client.getBaseSchema('appA'));

    expect(error.upstreamType).toBe('CONNECTION_ERROR');
    expect(error.attempts).toBe(2);
  });
});
