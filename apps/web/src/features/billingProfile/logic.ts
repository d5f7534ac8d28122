import { constants } from '@numa/contract';

export interface BillingForm {
  firstName: string;
  lastName: string;
  address: string;
  city: string;
  province: string;
  postalCode: string;
  country: string;
  /** ISO code of the country chosen from the list; '' for a name typed freely. */
  regionCode: string;
}

export const billingFields = [
  'firstName',
  'lastName',
  'address',
  'city',
  'province',
  'country',
  'postalCode',
] as const;
export type BillingField = (typeof billingFields)[number];

/** i18n keys under `billing.errors`. */
export type BillingErrorKey =
  | 'firstNameRequired'
  | 'lastNameRequired'
  | 'addressRequired'
  | 'cityRequired'
  | 'cityTooLong'
  | 'provinceRequired'
  | 'countryRequired'
  | 'postalCodeRequired'
  | 'tooLong';

export type BillingErrors = Partial<Record<BillingField, BillingErrorKey>>;

/** The longest value of each field the server keeps (contract: updateProfile). */
export const billingMax: Record<BillingField, number> = {
  firstName: 50,
  lastName: 50,
  address: 200,
  city: constants.billingCityMax,
  province: 50,
  country: 60,
  postalCode: 20,
};

const required: Record<BillingField, BillingErrorKey> = {
  firstName: 'firstNameRequired',
  lastName: 'lastNameRequired',
  address: 'addressRequired',
  city: 'cityRequired',
  province: 'provinceRequired',
  country: 'countryRequired',
  postalCode: 'postalCodeRequired',
};

export const emptyBilling = (): BillingForm => ({
  firstName: '',
  lastName: '',
  address: '',
  city: '',
  province: '',
  postalCode: '',
  country: '',
  regionCode: '',
});

/** Every field required and trimmed; city at most 20 (spec 000 §5 Billing profile update). */
export function validateBilling(form: BillingForm): BillingErrors {
  const errors: BillingErrors = {};
  for (const f of billingFields) {
    const v = form[f].trim();
    if (!v) errors[f] = required[f];
    else if (v.length > billingMax[f]) errors[f] = f === 'city' ? 'cityTooLong' : 'tooLong';
  }
  return errors;
}

export const trimBilling = (form: BillingForm): BillingForm => ({
  firstName: form.firstName.trim(),
  lastName: form.lastName.trim(),
  address: form.address.trim(),
  city: form.city.trim(),
  province: form.province.trim(),
  postalCode: form.postalCode.trim(),
  country: form.country.trim(),
  regionCode: /^[A-Z]{2}$/.test(form.regionCode) ? form.regionCode : '',
});

export const sameBilling = (a: BillingForm, b: BillingForm) =>
  JSON.stringify(trimBilling(a)) === JSON.stringify(trimBilling(b));
