/**
 * The search feature's public contract: the username lookup's call, which the results page also makes
 * when a username on a profile is looked up. Other features import only this file.
 */
export { lookupUsername, usernameOf } from './api/lookupUsername.ts';
