export * from './errors';
export * from './packs';
export * from './catalog';
export * from './contact';
export * from './routes';
export * from './schemas';
export * from './payments';
export * from './auth';
