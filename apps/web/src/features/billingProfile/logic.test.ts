import { beforeEach, describe, expect, it } from 'vitest';
import { emptyBilling, sameBilling, trimBilling, validateBilling } from './logic';
import { handleProfileRequired, startProfileFlow, useProfileFlow } from '../../shared/dialogs/billingProfile';
import { useVerifyModal } from '../../shared/dialogs/verify';

const full = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  address: '12 St James Sq',
  city: 'London',
  province: 'Greater London',
  postalCode: 'SW1Y 4LB',
  country: 'United Kingdom',
  regionCode: 'GB',
};

describe('billing profile validation', () => {
  it('gives every field its own message', () => {
    expect(validateBilling(emptyBilling())).toEqual({
      firstName: 'firstNameRequired',
      lastName: 'lastNameRequired',
      address: 'addressRequired',
      city: 'cityRequired',
      province: 'provinceRequired',
      country: 'countryRequired',
      postalCode: 'postalCodeRequired',
    });
  });
  it('trims, and keeps the city to 20 characters', () => {
    expect(validateBilling({ ...full, firstName: '   ' }).firstName).toBe('firstNameRequired');
    expect(validateBilling({ ...full, city: 'c'.repeat(20) })).toEqual({});
    expect(validateBilling({ ...full, city: 'c'.repeat(21) }).city).toBe('cityTooLong');
    expect(validateBilling({ ...full, address: 'a'.repeat(201) }).address).toBe('tooLong');
  });
  it('sends trimmed values and a region code only when it is one', () => {
    expect(trimBilling({ ...full, firstName: ' Ada ', regionCode: 'zz' })).toEqual({
      ...full,
      regionCode: '',
    });
    expect(sameBilling(full, { ...full, city: ' London ' })).toBe(true);
    expect(sameBilling(full, { ...full, city: 'Paris' })).toBe(false);
  });
});

describe('the profile flow (100023)', () => {
  beforeEach(() => {
    useProfileFlow.setState({ dialog: null, required: null });
    useVerifyModal.getState().close();
  });
  it('opens the form for a profile never submitted, after the prompt when managing a number', () => {
    startProfileFlow(-1);
    expect(useProfileFlow.getState().dialog).toEqual({ kind: 'update' });
    startProfileFlow(0, 'manageNumber');
    expect(useProfileFlow.getState().dialog).toEqual({ kind: 'ask' });
  });
  it('shows the status modal for the other statuses', () => {
    startProfileFlow(1);
    expect(useProfileFlow.getState().dialog).toEqual({ kind: 'status', state: 'review' });
    startProfileFlow(100);
    expect(useProfileFlow.getState().dialog).toEqual({ kind: 'status', state: 'refused' });
    startProfileFlow(2);
    expect(useProfileFlow.getState().dialog).toEqual({ kind: 'status', state: 'done' });
  });
  it('sends the user to verify a phone first when needSetPhone, and keeps the data', () => {
    expect(handleProfileRequired({ profileStatus: -1, needSetPhone: true })).toBe(true);
    expect(useVerifyModal.getState().mode).toBe('update2');
    expect(useProfileFlow.getState().required).toEqual({ profileStatus: -1, needSetPhone: true });
    expect(useProfileFlow.getState().dialog).toBeNull();
    // once the phone is verified, the missing profile follows
    useVerifyModal.getState().onDone?.();
    expect(useProfileFlow.getState().dialog).toEqual({ kind: 'update' });
  });
  it('ignores data that is not the 100023 shape', () => {
    expect(handleProfileRequired({ nope: 1 })).toBe(false);
    expect(handleProfileRequired(null)).toBe(false);
  });
});
