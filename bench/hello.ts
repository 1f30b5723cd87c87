// The baseline: a bare Fastify answering a constant, on an ephemeral port it prints.
import Fastify from 'fastify';

const app = Fastify();
app.get('/hello', async () => ({ code: 200, message: '成功', data: { hello: 'world' } }));
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening on http://127.0.0.1:${(app.server.address() as { port: number }).port}`);
