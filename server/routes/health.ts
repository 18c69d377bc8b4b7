import type { FastifyInstance } from 'fastify';
import type { RouteContext } from './context';

export function registerHealthRoutes(app: FastifyInstance, { db }: RouteContext): void {
  // A readiness probe: ready means the database answers too.
  app.get('/health', async (request, reply) => {
    try {
      await db.query('SELECT 1');
      return { ok: true };
    } catch (err) {
      request.log.error({ err }, 'health check: database unavailable');
      return reply.code(503).send({ error: 'unavailable', message: 'Database unavailable' });
    }
  });
}
