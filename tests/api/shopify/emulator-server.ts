/**
 * The Shopify Admin GraphQL emulator (server/shops/shopify/emulator.ts) behind a real local HTTP
 * server, as the tests start it: `POST /admin/api/{version}/graphql.json` with
 * `X-Shopify-Access-Token`, the shop named by `X-Shopify-Shop-Domain` (SHOPIFY_ADMIN_BASE_URL
 * points the console here). `delayMs` slows every answer (a crash test kills the console while
 * pages are in flight); `onQuery` sees each request after it was answered.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleGraphql, type EmulatorStore } from '../../../server/shops/shopify/emulator.js';

export interface EmulatorServer {
  url: string;
  stores: Map<string, EmulatorStore>;
  delayMs: number;
  /** 1-based request numbers answered THROTTLED whatever the bucket holds (a throttle in the middle of a sync) */
  throttleAt: number[];
  /** requests answered, with the variables and the status */
  log: Array<{ domain: string; variables: Record<string, unknown>; status: number; throttled: boolean; records: number }>;
  close(): Promise<void>;
}

export async function startEmulator(stores: EmulatorStore[]): Promise<EmulatorServer> {
  const emu: EmulatorServer = {
    url: '',
    stores: new Map(stores.map((s) => [s.domain, s])),
    delayMs: 0,
    throttleAt: [],
    log: [],
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || !/^\/admin\/api\/20\d\d-\d\d\/graphql\.json$/.test(req.url ?? '')) return send(404, { errors: 'Not Found' });
      const domain = String(req.headers['x-shopify-shop-domain'] ?? '');
      const store = emu.stores.get(domain);
      if (!store) return send(404, { errors: 'Not Found' });
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(400, { errors: 'Bad Request' });
      }
      const token = req.headers['x-shopify-access-token'];
      setTimeout(() => {
        if (emu.throttleAt.includes(emu.log.length + 1)) store.throttleNext = Math.max(store.throttleNext, 1);
        const before = store.served.product + store.served.order + store.served.policy;
        const r = handleGraphql(store, typeof token === 'string' ? token : undefined, body);
        const throttled = JSON.stringify(r.json ?? {}).includes('"THROTTLED"');
        emu.log.push({
          domain,
          variables: ((body as { variables?: Record<string, unknown> }).variables ?? {}),
          status: r.status,
          throttled,
          records: store.served.product + store.served.order + store.served.policy - before,
        });
        send(r.status, r.json);
      }, emu.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  emu.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  emu.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return emu;
}

