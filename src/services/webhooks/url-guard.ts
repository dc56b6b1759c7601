import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isForbiddenAddress, isForbiddenHostName } from './forbidden-addresses.js';

/** A webhook URL that may not be used; the message is safe to show to its owner. */
export class UnsafeWebhookUrl extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeWebhookUrl';
  }
}

/** Where a delivery connects: the address that was checked, so DNS cannot answer differently at connect time. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export type ResolveAll = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const resolveAll: ResolveAll = (hostname) => lookup(hostname, { all: true, verbatim: true });

export const MAX_WEBHOOK_URL_LENGTH = 2048;
const CONTROL_OR_SPACE = /[\p{Cc} \u2028\u2029]/u;

/**
 * The SSRF guard of webhook URLs: https only, and every address the host resolves to must be on the public
 * internet, unless the host (or host:port) is in WEBHOOK_ALLOWED_HOSTS, which also permits plain http.
 * Used when a webhook is created and again before every delivery.
 */
export class WebhookUrlGuard {
  private readonly allowed: Set<string>;

  constructor(
    allowedHosts: string[],
    private readonly resolve: ResolveAll = resolveAll,
  ) {
    this.allowed = new Set(allowedHosts.map((h) => h.toLowerCase()));
  }

  /** Checks the URL's form and scheme (no DNS); returns it parsed. */
  private parse(raw: string): URL {
    if (raw.length > MAX_WEBHOOK_URL_LENGTH) throw new UnsafeWebhookUrl(`must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
    // The URL parser would drop tabs and line breaks and trim the rest; a URL that needs it was not meant as sent.
    if (CONTROL_OR_SPACE.test(raw)) throw new UnsafeWebhookUrl('must not contain spaces or control characters');
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new UnsafeWebhookUrl('must be an absolute URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UnsafeWebhookUrl('must be an https URL');
    if (url.username || url.password) throw new UnsafeWebhookUrl('must not carry credentials');
    if (url.protocol === 'http:' && !this.isAllowListed(url)) {
      throw new UnsafeWebhookUrl('must be an https URL (plain http only for hosts in WEBHOOK_ALLOWED_HOSTS)');
    }
    return url;
  }

  /** The full check: form, scheme and every resolved address. Returns the address to connect to. */
  async check(raw: string): Promise<CheckedTarget> {
    const url = this.parse(raw);
    const host = bareHost(url);
    const allowListed = this.isAllowListed(url);
    if (!allowListed && isForbiddenHostName(host)) throw new UnsafeWebhookUrl('must not point at a local or metadata host');
    const literal = isIP(host);
    const addresses = literal ? [{ address: host, family: literal }] : await this.lookup(host);
    if (!allowListed && addresses.some((a) => isForbiddenAddress(a.address))) {
      throw new UnsafeWebhookUrl('must not resolve to a loopback, private, link-local or otherwise non-public address');
    }
    const first = addresses[0]!;
    return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
  }

  private isAllowListed(url: URL): boolean {
    const host = url.hostname.toLowerCase();
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    return this.allowed.has(host) || this.allowed.has(`${host}:${port}`);
  }

  private async lookup(host: string): Promise<Array<{ address: string; family: number }>> {
    let addresses: Array<{ address: string; family: number }>;
    try {
      addresses = await this.resolve(host);
    } catch {
      throw new UnsafeWebhookUrl(`host ${host} does not resolve`);
    }
    if (!addresses.length) throw new UnsafeWebhookUrl(`host ${host} does not resolve`);
    return addresses;
  }
}

/** The host without IPv6 brackets. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}
