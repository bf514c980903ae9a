/**
 * The floor `npm run bench:api` measures the API against: a Fastify hello world with Fastify's defaults,
 * what any route of ours would cost with no work of its own. Run by api.bench.ts as a child process.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
const port = Number(process.env.PORT ?? 0);
await app.listen({ port, host: '127.0.0.1' });
process.send?.({ port: (app.server.address() as { port: number }).port });
