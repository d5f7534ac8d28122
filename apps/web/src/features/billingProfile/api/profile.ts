import { endpoints, type InputOf } from '@numa/contract';
import { call } from '../../../lib/api';

/** Saves the billing profile for review: its new status. */
export const updateBillingProfile = (profile: InputOf<typeof endpoints.updateProfile>) =>
  call(endpoints.updateProfile, profile, { silent: true });
