import { type InputOf } from '@numa/contract';
import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../../lib/api';

/** Saves the billing profile for review: its new status. */
export const updateBillingProfile = (profile: InputOf<typeof endpoints.updateProfile>) =>
  call(endpoints.updateProfile, profile, { silent: true });
