/**
 * The parsed JSON of a response that a test reads by path (`res.body.items[0].id`) without declaring its shape:
 * the test's own assertions say what it expects, and the HTTP client has already checked the body against the
 * OpenAPI document. The default body type of the test clients; a test that wants types passes its own.
 */
// biome-ignore lint/suspicious/noExplicitAny: a body read by path in assertions; typing every response of the suite by hand would restate the schema
export type JsonBody = any;
