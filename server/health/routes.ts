import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../context';
import { pingDatabase } from './repository';

export function registerHealthRoutes(app: FastifyInstance, { db }: RouteContext): void {
  // A readiness probe: ready means the database answers too.
  app.get('/health', async (request, reply) => {
    try {
      await pingDatabase(db);
      return { ok: true };
    } catch (err) {
      request.log.error({ err }, 'health check: database unavailable');
      return reply.code(503).send({ error: 'unavailable', message: 'Database unavailable' });
    }
  });
}
