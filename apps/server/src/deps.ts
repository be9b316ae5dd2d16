import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { DomainEvents } from './events.ts';

/**
 * What a service may use, handed to it explicitly (never the Fastify instance): the database, the domain events it
 * publishes after commit, the configuration and a logger.
 */
export interface Deps {
  db: Db;
  events: DomainEvents;
  config: Config;
  log: FastifyBaseLogger;
}
