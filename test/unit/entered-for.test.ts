import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineRoute, enteredFor, mount, type RouteSpec } from '../../src/rest/http/route.js';

/** A public operation at `path`; the gate reads only the path. */
const operation = (method: 'get' | 'post', path: string, extra: Partial<RouteSpec> = {}) =>
  defineRoute({
    method,
    path,
    operationId: path,
    summary: path,
    tag: 'Test',
    auth: false,
    success: { status: 200, description: path },
    errors: [],
    ...extra,
  });

/**
 * Two routers behind `enteredFor`, seen by what each request enters: `plain` holds only mount's routes (one mounted
 * after wrapping), `gated` has a layer of its own as well; a catch-all says which paths went by.
 */
const record = operation('get', '/things/{id}/records/{recordId}.json', { params: z.object({ id: z.string(), recordId: z.string() }) });
const list = operation('post', '/things');
const late = operation('get', '/late');
const afterwards = operation('get', '/afterwards');

let server: Server;
let url: string;
const entered: string[] = [];

beforeAll(async () => {
  const gated = Router();
  gated.use((req, _res, next) => {
    entered.push(`gated ${req.path}`);
    next();
  });
  mount(gated, late, async () => ({ gated: true }));
  const plain = Router();
  mount(plain, record, async ({ params }) => ({ params }));
  mount(plain, list, async () => ({ listed: true }));
  // Express's router function calls its `handle`: an entry is seen without a layer added to the stack.
  const routed = plain as Router & { handle: (req: Request, res: Response, next: NextFunction) => void };
  const handle = routed.handle.bind(plain);
  routed.handle = (req, res, next) => {
    entered.push(`plain ${req.path}`);
    handle(req, res, next);
  };
  const app = express();
  // A router whose stack holds more than mount's routes: entered whatever the path.
  app.use(enteredFor(gated));
  app.use((req, _res, next) => {
    entered.push(`before ${req.path}`);
    next();
  });
  app.use(enteredFor(plain));
  mount(plain, afterwards, async () => ({ afterwards: true }));
  app.use((req, res) => void res.status(404).json({ passedBy: req.path }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe(enteredFor.name, () => {
  it('lets in the paths mounted on the router, in any case, with or without a trailing slash', async () => {
    entered.length = 0;
    for (const path of ['/things/t1/records/r1.json', '/THINGS/t1/Records/r1.json', '/things/t1/records/r1.json/']) {
      const res = await fetch(`${url}${path}`);
      expect(res.status, path).toBe(200);
      expect(await res.json(), path).toEqual({ params: { id: 't1', recordId: 'r1' } });
    }
    const post = await fetch(`${url}/things`, { method: 'POST' });
    expect(await post.json()).toEqual({ listed: true });
    expect(entered.filter((line) => line.startsWith('plain'))).toHaveLength(4);
  });

  it('passes every other path on to what follows without entering the router, literal dots and segments included', async () => {
    entered.length = 0;
    for (const path of ['/things/t1/records/r1xjson', '/things/t1/records', '/things/t1/x/records/r1.json', '/things/more', '/other']) {
      const res = await fetch(`${url}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toEqual({ passedBy: path });
    }
    expect(entered.filter((line) => line.startsWith('plain'))).toEqual([]);
  });

  it('follows the router: a route mounted after wrapping is let in', async () => {
    entered.length = 0;
    expect(await (await fetch(`${url}/afterwards`)).json()).toEqual({ afterwards: true });
    expect(entered).toEqual(['gated /afterwards', 'before /afterwards', 'plain /afterwards']);
  });

  it('enters a router with other layers than mount’s routes for every path, and runs its routes', async () => {
    entered.length = 0;
    await fetch(`${url}/other`);
    await fetch(`${url}/things`, { method: 'POST' });
    expect(entered).toEqual(['gated /other', 'before /other', 'gated /things', 'before /things', 'plain /things']);
    expect(await (await fetch(`${url}/late`)).json()).toEqual({ gated: true });
  });
});
