export * from './errors';
export * from './packs';
export * from './catalog';
export * from './routes';
export * from './schemas';
export * from './payments';
export * from './auth';
