/**
 * The transport (./xhr-transport.ts) is fetched with the first request rather than with the
 * shell: the sign-in page renders without it (it starts loading when the visitor starts typing,
 * see `preloadTransport`), and a signed-in page load starts it at once beside the route's own code.
 */
import { loadOnce } from '../../runtime/load-once.js';
import { TransportError, type Transport } from './transport.js';

/** Starts fetching the transport (once; a failed chunk load is tried again next time); resolves to it. */
export const preloadTransport = loadOnce(() => import('./xhr-transport.js').then((m): Transport => m.xhrTransport));

/** The console's transport, loaded on first use. A chunk that cannot load is a network failure. */
export const lazyTransport: Transport = async (req) => {
  let send: Transport;
  try {
    send = await preloadTransport();
  } catch (e) {
    throw new TransportError('ERR_NETWORK', e instanceof Error ? e.message : 'Network Error');
  }
  return send(req);
};
