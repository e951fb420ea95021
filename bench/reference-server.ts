/**
 * `bench:graphql`'s yardstick: fastify and mercurius as they come (no logger, no plugin, a
 * one-field schema, graphql-jit as the service uses it), no database. It answers the bench's
 * bare request (`{ __typename }`) in the same slices as the service, so a run says what the
 * framework alone costs on this machine at that moment, and how much of a request is the
 * service's own (bench/README.md, round nineteen). Listens on PORT; prints "listening".
 */
import Fastify from 'fastify';
import mercurius from 'mercurius';

const app = Fastify({ logger: false });
await app.register(mercurius, { schema: 'type Query { hello: String }', resolvers: { Query: { hello: async () => 'hello' } }, jit: 1 });
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('listening');
