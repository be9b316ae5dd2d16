export * from './accounts.ts';
export * from './catalogue.ts';
export * from './bookings.ts';
export * from './payments.ts';
export * from './pricing.ts';
export * from './audit.ts';
export * from './mail.ts';
