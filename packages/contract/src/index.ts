export * from './constants.ts';
export * from './common.ts';
export * from './errors.ts';
export * from './auth.ts';
export * from './catalogue.ts';
export * from './halls.ts';
export * from './seats.ts';
export * from './tickets.ts';
