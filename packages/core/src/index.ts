export * from './permissions.ts';
export * from './areas.ts';
export * from './format.ts';
export * from './air.ts';
export * from './api/envelope.ts';
export * from './api/auth.ts';
export * from './api/users.ts';
