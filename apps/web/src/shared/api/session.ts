import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../lib/api';

/** Ends the session on the server (the local session ends whatever the answer). */
export const revokeSession = () => call(endpoints.logout, {}, { silent: true });

/** A new token for the session (every 12 hours, spec 000 §4). */
export const refreshSessionToken = () => call(endpoints.refreshToken, {}, { silent: true });
