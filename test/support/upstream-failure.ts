import { expect } from 'vitest';
import { UpstreamRequestError } from '../../src/upstream/upstream-error.js';

/** The UpstreamRequestError a call rejects with (fails the test when it resolves or throws something else). */
export async function failureOf(promise: Promise<unknown>): Promise<UpstreamRequestError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UpstreamRequestError);
  return error as UpstreamRequestError;
}
