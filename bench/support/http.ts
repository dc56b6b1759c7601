import { request as httpRequest } from 'node:http';

export interface HttpResult {
  status: number;
  body: string;
  bytes: number;
  /** From sending the request to the response headers. */
  firstByteMs: number;
  /** From sending the request to the last body byte. */
  totalMs: number;
}

export interface HttpOptions {
  method?: 'GET' | 'POST' | 'PUT';
  apiKey?: string;
  body?: unknown;
}

/** One request over a fresh connection, without any timeout: a usage count may take minutes. */
export function send(url: string, options: HttpOptions = {}): Promise<HttpResult> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(url, { method: options.method ?? 'GET', headers, agent: false }, (res) => {
      const firstByteMs = performance.now() - started;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const totalMs = performance.now() - started;
        const buffer = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, body: buffer.toString('utf8'), bytes: buffer.length, firstByteMs, totalMs });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Like send, but throws unless the status is the expected one, and parses the body. */
export async function sendExpecting<T>(status: number, url: string, options: HttpOptions = {}): Promise<T> {
  const result = await send(url, options);
  if (result.status !== status) {
    throw new Error(`${options.method ?? 'GET'} ${url}: expected ${status}, got ${result.status}: ${result.body.slice(0, 500)}`);
  }
  return JSON.parse(result.body) as T;
}
