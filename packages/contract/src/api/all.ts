/**
 * Every endpoint of the contract (and the schemas its area modules export), as plain re-exports: the
 * one list of the area modules (the contract's index and the registry read it), and what the web
 * client imports as a namespace (`import * as endpoints from '@numa/contract/endpoints'`).
 * Unlike the `endpoints` registry (api/index.ts, the server's list of every route), nothing here runs:
 * the bundler keeps an area module only in the chunks whose code names one of its endpoints, so a
 * screen builds the schemas of the calls it makes, not the whole contract's at the first load.
 */
export * from './auth';
export * from './chats';
export * from './contacts';
export * from './verify';
export * from './profile';
export * from './payments';
export * from './history';
export * from './rates';
export * from './invite';
export * from './numbers';
export * from './codes';
export * from './templates';
export * from './scheduled';
