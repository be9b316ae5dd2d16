import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../deps.ts';
import { DomainEvents } from '../events.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Domain events: services publish after commit; consumers subscribe (modules/seating/seat-events.ts). */
    events: DomainEvents;
    /** What route handlers pass to services: `{db, events, config, log}`. */
    deps: Deps;
  }
}

/** The domain event bus and the services' dependencies. */
export const eventsPlugin = fp(
  async function eventsPlugin(app: FastifyInstance) {
    const events = new DomainEvents(app.log);
    app.decorate('events', events);
    app.decorate('deps', { db: app.database.db, events, config: app.config, log: app.log });
  },
  { name: 'events', dependencies: ['db'] },
);
