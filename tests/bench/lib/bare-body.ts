/**
 * The reference for request bodies: a bare Fastify route in its own process
 * that receives a body whole as a string (Fastify's own parser) and answers a
 * small multistatus, with no authentication, database or XML. Run with the
 * port as its argument; it prints "ready" when listening.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false, bodyLimit: 2 * 1024 * 1024 });
app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
app.post('/*', async (request, reply) => {
  const received = typeof request.body === 'string' ? request.body.length : 0;
  return reply
    .code(207)
    .type('application/xml; charset=utf-8')
    .send(`<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:"><!-- ${received} --></D:multistatus>`);
});
await app.listen({ host: '127.0.0.1', port: Number(process.argv[2]) });
console.log('ready');
