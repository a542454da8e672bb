/**
 * A TCP proxy between server processes and a database, for fault tests: `cut()` destroys every
 * open connection and refuses new ones (the database is gone, as far as the processes can
 * tell); `restore()` accepts again. `url(dbUrl)` is `dbUrl` pointed at the proxy.
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  url(dbUrl: string): string;
  cut(): void;
  restore(): void;
  readonly isCut: boolean;
  /** connections accepted since the start (refused ones not counted) */
  readonly accepted: number;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let isCut = false;
  let accepted = 0;
  const server = net.createServer((client) => {
    if (isCut) {
      client.destroy();
      return;
    }
    accepted++;
    const upstream = net.connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    port,
    url(dbUrl: string) {
      const u = new URL(dbUrl);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut() {
      isCut = true;
      for (const s of open) s.destroy();
      open.clear();
    },
    restore() {
      isCut = false;
    },
    get isCut() {
      return isCut;
    },
    get accepted() {
      return accepted;
    },
    async close() {
      isCut = true;
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
