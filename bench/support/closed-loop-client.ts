/**
 * A closed-loop HTTP/1.1 load client, run as its own process by closed-loop.ts. Each keep-alive connection sends its
 * next request as soon as the previous response ended. The warm-up runs on the same connections as the measurement,
 * so the measured window holds no connection set-up, and every latency is one real response (no synthetic samples).
 *
 * argv: url, connections, warm-up seconds, measured seconds. Environment: LOAD_AUTHORIZATION, LOAD_ACCEPT_ENCODING,
 * LOAD_BODY (a JSON body makes each request a POST), LOAD_PATHS_FILE (a JSON array of paths of url's origin: the
 * requests take them in turn, across all connections, instead of url's own). Prints `CLOSED_LOOP_MEASURING` when the
 * measured window opens, then one line `CLOSED_LOOP_RESULT {json}`.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { percentile } from './percentiles.js';

const HEADER_END = Buffer.from('\r\n\r\n');
/** The zero-length chunk that ends a chunked body, with the line end before it. */
const CHUNKED_END = Buffer.from('\r\n0\r\n\r\n');

const [urlText, connectionsText, warmUpText, secondsText] = process.argv.slice(2);
const url = new URL(urlText);
const connections = Number(connectionsText);
const body = process.env.LOAD_BODY ? Buffer.from(process.env.LOAD_BODY) : undefined;
const paths: string[] = process.env.LOAD_PATHS_FILE
  ? (JSON.parse(readFileSync(process.env.LOAD_PATHS_FILE, 'utf8')) as string[])
  : [`${url.pathname}${url.search}`];
const requests = paths.map((path) => requestFor(path));
let nextRequest = 0;

function requestFor(path: string): Buffer {
  const head = [
    `${body ? 'POST' : 'GET'} ${path} HTTP/1.1`,
    `Host: ${url.host}`,
    `Authorization: ${process.env.LOAD_AUTHORIZATION ?? ''}`,
    `Accept-Encoding: ${process.env.LOAD_ACCEPT_ENCODING ?? 'identity'}`,
    ...(body ? ['Content-Type: application/json', `Content-Length: ${body.length}`] : []),
    '',
    '',
  ];
  return Buffer.concat([Buffer.from(head.join('\r\n')), body ?? Buffer.alloc(0)]);
}

let measuring = false;
let stopping = false;
const latencies: number[] = [];
const totals = { bytes: 0, errors: 0, non2xx: 0 };

/** Reads one response after another from a socket: headers, then a Content-Length or chunked body. */
class Connection {
  private readonly socket: Socket;
  private pending: Buffer | undefined;
  private sentAt = 0;
  private sentWhileMeasuring = false;
  private status = 0;
  private headerBytes = 0;
  /** Body bytes still to come (Content-Length), or -1 for a chunked body. */
  private bodyLeft: number | undefined;
  /** The last bytes of a chunked body, to spot its end across reads. */
  private chunkedTail = Buffer.alloc(0);
  private bytes = 0;

  constructor() {
    this.socket = connect(Number(url.port), url.hostname, () => this.send());
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => this.receive(chunk));
    // A connection that ends before the run does is an error (and one client fewer): 'close' follows 'error' too.
    this.socket.on('error', () => {});
    this.socket.on('close', () => {
      if (!stopping) totals.errors++;
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private send(): void {
    if (stopping) return;
    this.sentAt = performance.now();
    this.sentWhileMeasuring = measuring;
    this.bytes = 0;
    this.socket.write(requests[nextRequest++ % requests.length]);
  }

  private receive(chunk: Buffer): void {
    this.bytes += chunk.length;
    let data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    if (this.bodyLeft === undefined) {
      const end = data.indexOf(HEADER_END);
      if (end < 0) {
        this.pending = data;
        return;
      }
      const head = data.toString('latin1', 0, end);
      this.status = Number(head.slice(9, 12));
      this.headerBytes = end + HEADER_END.length;
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      this.bodyLeft = length ? Number(length[1]) : /\r\ntransfer-encoding: *chunked/i.test(head) ? -1 : 0;
      this.chunkedTail = Buffer.from('\r\n');
      data = data.subarray(this.headerBytes);
    }
    if (this.bodyLeft >= 0) {
      this.bodyLeft -= data.length;
      if (this.bodyLeft > 0) return;
    } else {
      // No pipelining: nothing follows the zero-length chunk until the next request is sent.
      this.chunkedTail = Buffer.concat([this.chunkedTail, data]).subarray(-CHUNKED_END.length);
      if (!this.chunkedTail.equals(CHUNKED_END)) return;
    }
    this.complete();
  }

  private complete(): void {
    this.bodyLeft = undefined;
    if (this.sentWhileMeasuring && measuring) {
      latencies.push(performance.now() - this.sentAt);
      totals.bytes += this.bytes;
      if (this.status < 200 || this.status > 399) totals.non2xx++;
    }
    this.send();
  }
}

const pool = Array.from({ length: connections }, () => new Connection());
await sleep(Number(warmUpText) * 1000);
measuring = true;
process.stdout.write('CLOSED_LOOP_MEASURING\n');
const started = performance.now();
await sleep(Number(secondsText) * 1000);
measuring = false;
const durationMs = performance.now() - started;
stopping = true;
for (const connection of pool) connection.close();

latencies.sort((a, b) => a - b);
const result = {
  completed: latencies.length,
  durationSeconds: durationMs / 1000,
  ...totals,
  p50: percentile(latencies, 50),
  p90: percentile(latencies, 90),
  p99: percentile(latencies, 99),
  max: latencies[latencies.length - 1] ?? Number.NaN,
};
process.stdout.write(`CLOSED_LOOP_RESULT ${JSON.stringify(result)}\n`);

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
