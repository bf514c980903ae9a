import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The built console under /manage/: real files as they are (hashed assets cached for a year), and every
 * other /manage/ path answered with index.html so deep links such as /manage/center/buy work.
 */
export async function registerSpa(app: FastifyInstance, webDist: string | null): Promise<void> {
  app.get('/', { config: { access: 'public' }, schema: { hide: true } }, (_req, reply) => reply.redirect('/manage/'));
  if (!webDist || !existsSync(path.join(webDist, 'index.html'))) {
    app.log.warn({ webDist }, 'web console not built: /manage/ is not served (run npm run build)');
    return;
  }
  // preCompressed: the build wrote `.br` and `.gz` beside each text asset; the one the client accepts
  // is sent, and the file itself when it accepts neither (or none was written: small files).
  await app.register(fastifyStatic, { root: webDist, serve: false, preCompressed: true });
  app.get('/manage', { config: { access: 'public' }, schema: { hide: true } }, (_req, reply) => reply.redirect('/manage/'));
  app.get('/manage/*', { config: { access: 'public' }, schema: { hide: true } }, (request, reply) => {
    // Already percent-decoded by the router; decoding again would turn `%25E0` into a URIError (a 500).
    const rel = (request.params as { '*': string })['*'] ?? '';
    const file = path.normalize(rel);
    const isFile = rel !== '' && !file.startsWith('..') && existsSync(path.join(webDist, file)) && path.extname(file) !== '';
    // Caches must keep one copy per encoding (RFC 9110 §12.5.5).
    reply.header('vary', 'accept-encoding');
    if (isFile) {
      const immutable = file.startsWith(`assets${path.sep}`);
      return reply.sendFile(file, { maxAge: immutable ? 365 * 24 * 3600 * 1000 : 0, immutable });
    }
    // A missing file (an old chunk after a redeploy, a mistyped asset) is a 404, not index.html with 200:
    // a browser would run the HTML as a script and a cache would keep it. Client routes have no extension.
    if (path.extname(path.basename(rel)) !== '') return reply.callNotFound();
    reply.header('cache-control', 'no-cache');
    // cacheControl: false, or send() replaces the header above with `public, max-age=0`.
    return reply.sendFile('index.html', { cacheControl: false });
  });
}
