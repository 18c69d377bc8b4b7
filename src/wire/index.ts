export * from './common';
export * from './auth';
export * from './config';
export * from './profile';
export * from './preferences';
export * from './history';
export * from './analytics';
export * from './services';
