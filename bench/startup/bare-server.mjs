/** Start-up baseline: node + Fastify + one route listening, nothing else (plain JavaScript, as the built server). Env: PORT. */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/api/common/config', async () => ({ code: 10000, msg: 'ok', data: {} }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
