import type { Http } from './http.js';
import type { TestApp } from './test-app.js';

export const DEMO_BASES = {
  catalog: 'Acme Product Catalog',
  marketing: 'Marketing Assets',
  changeLog: 'Change Log',
} as const;

/** The upstream id of a demo base, looked up through the helper endpoint. */
export async function upstreamBaseId(http: Http, name: string): Promise<string> {
  const res = await http('GET', '/airtable/bases');
  const base = (res.body.bases as Array<{ id: string; name: string }>).find((b) => b.name === name);
  if (!base) throw new Error(`no upstream base named ${name}`);
  return base.id;
}

/** Tracks a demo base for the caller and returns the usage base. */
export async function trackBase(http: Http, name: string, extra: Record<string, unknown> = {}) {
  const baseId = await upstreamBaseId(http, name);
  const res = await http('POST', '/usage/bases', { body: { baseId, ...extra } });
  if (res.status !== 201) throw new Error(`tracking ${name} failed: ${res.status} ${res.text}`);
  return res.body.base as { id: string; baseId: string; baseName: string; scheduledHour: number; timezone: string };
}

let logBases = 0;

/**
 * A new empty base of the app's sandbox upstream to log into. A second config of one base into one monitoring base
 * (same scope, no table given) is refused, so tests that make several configs of a base give each its own.
 */
export function newLogBase(app: Pick<TestApp, 'running'>): string {
  logBases += 1;
  return app.running.sandbox!.store.addBase({ name: `Log base ${logBases}`, tables: [] }).id;
}
