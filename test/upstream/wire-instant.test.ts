import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Slot } from '../../src/upstream/sliding-window.js';
import { sendInSlot } from '../../src/upstream/wire-instant.js';

const ANSWER_DELAY_MS = 300;
let server: Server;
let url: string;
let arrivedAt = 0;

beforeAll(async () => {
  server = createServer((_request, response) => {
    arrivedAt = Date.now();
    setTimeout(() => response.end('{}'), ANSWER_DELAY_MS);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('wire instant', () => {
  it('counts a fetch from when its request was written, not from its answer', async () => {
    const slot = new Slot();
    await sendInSlot(slot, () => fetch(url).then((response) => response.text()));

    const sentAt = slot.expiresAt(0);
    expect(sentAt).toBeLessThanOrEqual(arrivedAt);
    expect(arrivedAt - sentAt).toBeLessThan(ANSWER_DELAY_MS / 2);
  });

  it('counts from the end of an exchange that never reached the wire', async () => {
    const slot = new Slot();
    const before = Date.now();
    await sendInSlot(slot, () => Promise.resolve());
    expect(slot.expiresAt(0)).toBeGreaterThanOrEqual(before);
  });
});
