import { it } from 'vitest';
import { allRoutes } from '../../../server/routes/index.js';
import { startServer } from '../harness.js';
it('prof', async () => {
  let t = Date.now();
  const r = await allRoutes(); console.log('allRoutes', Date.now() - t, r.length); t = Date.now();
  const s = await startServer(); console.log('startServer', Date.now() - t); t = Date.now();
  await s.login(); console.log('login', Date.now() - t); t = Date.now();
  await s.close(); console.log('close', Date.now() - t);
}, 120000);
