import { describe, expect, it } from 'vitest';
import { WebhookHttpSender } from '../../src/services/webhooks/http-sender.js';
import { UnsafeWebhookUrl, WebhookUrlGuard, type ResolveAll } from '../../src/services/webhooks/url-guard.js';
import { Receiver } from './support/receiver.js';

/** A DNS stand-in: answers from a table, one answer list per look-up in turn. */
function dns(answers: Record<string, string[][]>): ResolveAll {
  return async (hostname) => {
    const next = answers[hostname]?.shift();
    if (!next) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return next.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

describe(WebhookUrlGuard.name, () => {
  it('rejects a host name when any of its addresses is private, even beside public ones', async () => {
    const guard = new WebhookUrlGuard([], dns({ 'mixed.example': [['93.184.216.34', '10.1.2.3']] }));
    await expect(guard.check('https://mixed.example/hook')).rejects.toBeInstanceOf(UnsafeWebhookUrl);
  });

  it('accepts a host name resolving to public addresses and returns the address to connect to', async () => {
    const guard = new WebhookUrlGuard([], dns({ 'public.example': [['93.184.216.34', '2606:2800:220:1::1']] }));
    const target = await guard.check('https://public.example/hook');
    expect(target).toMatchObject({ address: '93.184.216.34', family: 4 });
  });

  it('looks the host up again at every check, so a rebinding to a private address is caught at delivery', async () => {
    const guard = new WebhookUrlGuard([], dns({ 'rebind.example': [['93.184.216.34'], ['127.0.0.1']] }));
    await expect(guard.check('https://rebind.example/hook')).resolves.toMatchObject({ address: '93.184.216.34' });
    await expect(guard.check('https://rebind.example/hook')).rejects.toThrow(/non-public/);
  });

  it('lets allow-listed hosts resolve anywhere, over http too, and only on the listed port', async () => {
    const guard = new WebhookUrlGuard(['intranet.example:8080'], dns({ 'intranet.example': [['10.0.0.5'], ['10.0.0.5']] }));
    await expect(guard.check('http://intranet.example:8080/hook')).resolves.toMatchObject({ address: '10.0.0.5' });
    await expect(guard.check('http://intranet.example:8081/hook')).rejects.toThrow(/https/);
    await expect(guard.check('https://intranet.example/hook')).rejects.toThrow(/non-public/);
  });

  // One address in each non-public IPv4 range, and the same address IPv4-mapped, dotted and in hex.
  const privateV4 = [
    '0.0.0.1',
    '10.1.2.3',
    '100.64.0.1',
    '127.0.0.1',
    '169.254.169.254',
    '172.16.0.1',
    '192.0.0.8',
    '192.0.2.1',
    '192.88.99.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.51.100.1',
    '203.0.113.1',
    '224.0.0.1',
    '255.255.255.255',
  ];
  const mappedHex = (v4: string) => {
    const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
    return `::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  };

  it.each(privateV4)('rejects %s and its IPv4-mapped forms, in DNS answers and as the URL host', async (v4) => {
    for (const address of [v4, `::ffff:${v4}`, mappedHex(v4), `0:0:0:0:0:ffff:${v4}`]) {
      const guard = new WebhookUrlGuard([], dns({ 'mapped.example': [[address]] }));
      await expect(guard.check('https://mapped.example/hook'), address).rejects.toThrow(/non-public/);
      const host = address.includes(':') ? `[${address}]` : address;
      await expect(new WebhookUrlGuard([], dns({})).check(`https://${host}/hook`), host).rejects.toBeInstanceOf(UnsafeWebhookUrl);
    }
  });

  it('rejects every IPv4-mapped address (::ffff:0:0/96), a public IPv4 address inside it too, and accepts that address bare', async () => {
    for (const address of ['::ffff:93.184.216.34', '::ffff:5db8:d822', '::ffff:0:5db8:d822']) {
      const guard = new WebhookUrlGuard([], dns({ 'mapped.example': [[address]] }));
      await expect(guard.check('https://mapped.example/hook'), address).rejects.toThrow(/non-public/);
    }
    const guard = new WebhookUrlGuard([], dns({ 'public.example': [['93.184.216.34'], ['2606:2800:220:1::1']] }));
    await expect(guard.check('https://public.example/hook')).resolves.toMatchObject({ address: '93.184.216.34' });
    await expect(guard.check('https://public.example/hook')).resolves.toMatchObject({ address: '2606:2800:220:1::1' });
  });

  it('rejects a host that does not resolve', async () => {
    await expect(new WebhookUrlGuard([], dns({})).check('https://nowhere.example/')).rejects.toThrow(/does not resolve/);
  });
});

describe(WebhookHttpSender.name, () => {
  it('connects to the checked address and never looks the host up itself', async () => {
    const receiver = await new Receiver().start();
    try {
      // The host only exists in the stand-in DNS: the request can only arrive through the checked address.
      const host = `pinned.invalid:${receiver.port}`;
      const guard = new WebhookUrlGuard([host], dns({ 'pinned.invalid': [['127.0.0.1']] }));
      const target = await guard.check(`http://${host}/pinned`);
      const sender = new WebhookHttpSender(2_000);
      const result = await sender.send(target, { 'webhook-id': 'x' }, '{}');
      sender.close();
      expect(result).toMatchObject({ statusCode: 200, error: null });
      expect(receiver.at('/pinned')[0]!.headers.host).toBe(host);
    } finally {
      await receiver.stop();
    }
  });

  it('gives up after the timeout', async () => {
    const receiver = await new Receiver().start();
    receiver.answer = () => ({ status: 200, delayMs: 1_000 });
    try {
      const target = await new WebhookUrlGuard([`127.0.0.1:${receiver.port}`]).check(receiver.url('/slow'));
      const sender = new WebhookHttpSender(100);
      const result = await sender.send(target, {}, '{}');
      sender.close();
      expect(result).toMatchObject({ statusCode: null, error: expect.stringMatching(/no answer within 100 ms/) });
    } finally {
      await receiver.stop();
    }
  });
});
