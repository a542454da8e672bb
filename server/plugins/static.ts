import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendEnvelope } from './errors.js';

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>后台管理系统</title></head>
<body><h1>The console is not built yet</h1><p>Run <code>npm run build</code> (or <code>npm start</code>, which builds when needed), then reload.</p>
<p>控制台尚未构建：请先运行 <code>npm run build</code>。</p></body></html>`;

/**
 * Serves the built client from `staticDir` with SPA fallback: any GET outside /api that is not
 * a file gets index.html. /api paths that match no route get HTTP 404 with an envelope.
 */
export async function registerStatic(app: FastifyInstance, staticDir: string): Promise<void> {
  const index = path.join(staticDir, 'index.html');
  const built = fs.existsSync(index);
  if (built) {
    await app.register(fastifyStatic, { root: staticDir, prefix: '/', wildcard: true, index: false });
    // the bare directory URL is the console itself (with `index: false` it would be a 403)
    app.get('/', (_req, reply) => reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html'));
  }
  app.setNotFoundHandler((req: FastifyRequest, reply: FastifyReply) => {
    const url = req.url.split('?')[0];
    const api = url === '/api' || url.startsWith('/api/');
    if (api || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return sendEnvelope(reply, 404, 40004, `route ${req.method} ${url} not found / 接口不存在`);
    }
    reply.header('cache-control', 'no-cache');
    if (built) return reply.type('text/html; charset=utf-8').sendFile('index.html');
    return reply.type('text/html; charset=utf-8').send(NOT_BUILT);
  });
}
