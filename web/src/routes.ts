import { type ComponentType, h, type VNode } from 'preact';
import { mirrorRoute } from './mirror/mirror-paths.js';

/** A signed-in page: the loader of its chunk, and the page itself once loaded. */
export interface PageRoute {
  load: () => Promise<unknown>;
  /** The page once its chunk is in, at once (no frame of "Loading…" on the way back to a page); null before. */
  render: () => VNode<object> | null;
}

const loaded = new Map<unknown, ComponentType<never>>();
const loader = <P>(load: () => Promise<ComponentType<P>>) => {
  const once = () => load().then((component) => void loaded.set(once, component as ComponentType<never>));
  return once as unknown as () => Promise<ComponentType<P>>;
};
const route = <P extends object>(load: () => Promise<ComponentType<P>>, props: P): PageRoute => ({
  load,
  render: () => {
    const component = loaded.get(load) as ComponentType<P> | undefined;
    return component ? (h(component, props) as VNode<object>) : null;
  },
});

// Usage and a base's page, the pages a signed-in visit opens on, come with the signed-in chunk; the rest in another.
const signedIn = () => import('./signed-in.js');
const more = () => import('./more-pages.js');
const usage = loader(() => signedIn().then((m) => m.UsagePage));
const base = loader(() => signedIn().then((m) => m.BasePage));
const settings = loader(() => more().then((m) => m.SettingsPage));
const webhooks = loader(() => more().then((m) => m.WebhooksPage));
const auditConfigs = loader(() => more().then((m) => m.AuditConfigsPage));
const auditChanges = loader(() => more().then((m) => m.AuditChangesPage));
const recordHistory = loader(() => more().then((m) => m.RecordHistoryPage));
const deletedRecords = loader(() => more().then((m) => m.DeletedRecordsPage));
const notFound = loader(() => more().then((m) => m.NotFoundPage));

/**
 * The signed-in page of a path; "not found" for any other. Paths avoid the APIs' (`/webhooks`, `/usage`…): the server
 * answers a page only for paths no API route takes, so webhooks live at `/forwarding`.
 */
export function signedInRoute(path: string): PageRoute {
  const id = (prefix: string) =>
    path.startsWith(prefix) && path.length > prefix.length ? decodeURIComponent(path.slice(prefix.length)) : undefined;
  const baseId = id('/bases/');
  const configId = id('/audit-log/');
  if (path === '/settings') return route(settings, {});
  if (path === '/forwarding') return route(webhooks, {});
  if (path === '/audit-log') return route(auditConfigs, {});
  const mirror = mirrorRoute(path);
  if (mirror?.page === 'history') return route(recordHistory, { configId: mirror.configId, recordId: mirror.recordId });
  if (mirror?.page === 'deleted') return route(deletedRecords, { configId: mirror.configId });
  if (configId) return route(auditChanges, { id: configId });
  if (baseId) return route(base, { id: baseId });
  if (path === '/') return route(usage, {});
  return route(notFound, { path });
}
