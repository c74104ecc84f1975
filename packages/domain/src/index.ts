export * from './auth.ts';
export * from './constants.ts';
export * from './messages.ts';
export * from './validation.ts';
export * from './lookup/profile-types.ts';
export * from './lookup/requests.ts';
export * from './lookup/sources.ts';
