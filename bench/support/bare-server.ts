import { spawn } from 'node:child_process';
import { ms } from './markdown.js';
import { progress } from './progress.js';
import { runLoad, type LoadOptions } from './load.js';
import type { Measured } from './snapshot-report.js';

/**
 * A bare node:http server (no Express, no database) that burns `cpuMs` of CPU on each request and answers a body of
 * `bodyBytes`: what one event loop does with the same work per request, under the same load, without our code.
 */
const BARE_SERVER = `
const http = require('node:http');
const [cpuMs, bodyBytes] = process.argv.slice(1).map(Number);
const body = Buffer.alloc(bodyBytes, 'a');
const server = http.createServer((req, res) => {
  const until = performance.now() + cpuMs;
  while (performance.now() < until);
  res.setHeader('Content-Type', 'application/json');
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));
`;

/** Runs `load` against a bare server doing `cpuMs` per request with a `bodyBytes` body, as a row for a load table. */
export async function measureBareServer(
  cpuMs: number,
  bodyBytes: number,
  load: Omit<LoadOptions, 'url' | 'serverPid' | 'apiKey' | 'acceptEncoding'>,
): Promise<Measured> {
  const child = spawn(process.execPath, ['-e', BARE_SERVER, String(cpuMs), String(bodyBytes)], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        const match = /port (\d+)/.exec(String(chunk));
        if (match) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`the bare server exited with ${code}`)));
    });
    const measured = await runLoad({ ...load, url: `http://127.0.0.1:${port}/`, apiKey: 'unused', serverPid: child.pid! });
    const name = `for comparison: bare node:http server, ${cpuMs.toFixed(2)} ms of CPU burnt per request, same body size`;
    return { scenario: { name, path: '/', connections: load.connections }, bodyBytes, load: measured };
  } finally {
    child.kill();
  }
}

/**
 * A measured row's user CPU per request and bytes on the wire, served by a bare node:http server under the same load:
 * how far one event loop gets with that much work per request, whatever the code.
 */
export async function bareReference(
  { scenario, load }: Measured,
  options: Omit<LoadOptions, 'url' | 'serverPid' | 'apiKey' | 'acceptEncoding' | 'connections'>,
): Promise<Measured> {
  const cpuMs = load.serverCpuPerRequest?.userMs ?? 0;
  progress(`bare node:http server with ${ms(cpuMs)} of CPU per request (as ${scenario.name}), ${options.seconds} s`);
  return measureBareServer(cpuMs, Math.round(load.wireBytesPerResponse), { ...options, connections: scenario.connections });
}
