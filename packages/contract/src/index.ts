export * from './common';
export * from './endpoint';
export * from './retcodes';
export * from './brands';
export * from './constants';
export * from './api/auth';
export { endpoints } from './api/index';
export type { Endpoints, EndpointName } from './api/index';
