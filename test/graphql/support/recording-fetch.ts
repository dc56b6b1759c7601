/** What a client put on the wire: method, URL, content type and body of each request. */
export interface SentRequest {
  method: string;
  url: string;
  contentType: string | null;
  body: string | undefined;
}

/** The platform's fetch, noting every request a client library makes with it. */
export function recordingFetch(): { fetch: typeof fetch; sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = request.body ? await request.clone().text() : undefined;
    sent.push({ method: request.method, url: request.url, contentType: request.headers.get('content-type'), body });
    return fetch(request);
  };
  return { fetch: recording, sent };
}
