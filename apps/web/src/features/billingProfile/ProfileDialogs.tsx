import { useMemo, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import {
  Button,
  ComboBox,
  FieldError,
  Form,
  Input,
  Label,
  Link,
  ListBox,
  ListBoxItem,
  Popover,
  TextField,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';
import { Loading, Spinner, LoadFailed } from '../../components/Spinner';
import { isApiError } from '../../lib/api';
import { brand } from '../../lib/config';
import { useCountries } from '../../lib/countries';
import { refreshAccount, refreshProfile, useProfile } from '../../shared/api/account';
import { updateBillingProfile } from './api/profile';
import {
  billingMax,
  emptyBilling,
  sameBilling,
  trimBilling,
  validateBilling,
  type BillingErrors,
  type BillingField,
  type BillingForm,
} from './logic';
import { useProfileFlow, type ProfileStatusState } from '../../shared/dialogs/billingProfile';
import { UnsavedChangesPrompt } from '../../components/UnsavedChanges';
import '../../components/status.css';
import './billing.css';

/** The profile flow's global dialogs: update form, ask-to-update prompt, status modal. */
export function ProfileDialogs() {
  const dialog = useProfileFlow((s) => s.dialog);
  if (!dialog) return null;
  if (dialog.kind === 'update') return <UpdateProfileDialog />;
  if (dialog.kind === 'ask') return <AskToUpdateDialog />;
  return <ProfileStatusDialog state={dialog.state} />;
}

/** Ask-to-update-profile (spec 000 §2, §4): shown first when managing a number or from a tip. */
function AskToUpdateDialog() {
  const { t } = useTranslation();
  const { close, openUpdate } = useProfileFlow();
  return (
    <Dialog
      isOpen
      onClose={close}
      role="alertdialog"
      width={420}
      title={t('billing.askTitle')}
      footer={
        <>
          <Button className="button" onPress={close}>
            {t('billing.later')}
          </Button>
          <Button className="button primary" onPress={openUpdate} autoFocus>
            {t('billing.updateNow')}
          </Button>
        </>
      }
    >
      <p>{t('billing.askText')}</p>
    </Dialog>
  );
}

/** The profile status modal (spec 000 §4): refused leads to the update form; the others inform. */
function ProfileStatusDialog({ state }: { state: ProfileStatusState }) {
  const { t } = useTranslation();
  const { close, openUpdate } = useProfileFlow();
  const profile = useProfile();
  const reason = state === 'refused' ? profile.data?.refuseReason : '';
  return (
    <Dialog
      isOpen
      onClose={close}
      role="alertdialog"
      width={420}
      title={t(`billing.status.${state}.title`)}
      footer={
        state === 'refused' ? (
          <>
            <Button className="button" onPress={close}>
              {t('app.cancel')}
            </Button>
            <Button className="button primary" onPress={openUpdate} autoFocus>
              {t('billing.updateProfile')}
            </Button>
          </>
        ) : (
          <Button className="button primary" onPress={close} autoFocus>
            {t('app.ok')}
          </Button>
        )
      }
    >
      <div className={`status-art ${state}`} aria-hidden="true">
        {state === 'done' ? '✓' : state === 'refused' ? '!' : '…'}
      </div>
      <p className={state === 'refused' ? 'refused-text' : undefined}>{t(`billing.status.${state}.text`)}</p>
      {reason && <p className="muted">{t('billing.reason', { reason })}</p>}
      {state === 'refused' && (
        <p className="muted">
          <Link href={`mailto:${brand.supportEmail}`}>{t('profile.contactSupport')}</Link>
        </p>
      )}
    </Dialog>
  );
}

const toStatusState = (s: 1 | 2 | 100): ProfileStatusState =>
  s === 2 ? 'done' : s === 1 ? 'pending' : 'refused';

/** Update profile (billing) (spec 000 §3, §5): every field required, unsaved-changes prompt on close. */
function UpdateProfileDialog() {
  const { t } = useTranslation();
  const profile = useProfile();
  const close = useProfileFlow((s) => s.close);
  if (profile.isPending || profile.isError) {
    return (
      <Dialog isOpen onClose={close} title={t('billing.title')} width={560}>
        {profile.isPending ? (
          <Loading label={t('app.loading')} />
        ) : (
          <LoadFailed onRetry={() => profile.refetch()} />
        )}
      </Dialog>
    );
  }
  const { firstName, lastName, address, city, province, postalCode, country, regionCode } = profile.data;
  return (
    <UpdateProfileForm
      initial={{ firstName, lastName, address, city, province, postalCode, country, regionCode }}
    />
  );
}

function UpdateProfileForm({ initial }: { initial: BillingForm }) {
  const { t } = useTranslation();
  const { close, openStatus } = useProfileFlow();
  const [form, setForm] = useState<BillingForm>(() => ({ ...emptyBilling(), ...initial }));
  const [errors, setErrors] = useState<BillingErrors | null>(null);
  const [confirmClose, setConfirmClose] = useState(false);
  const { data: countries = [] } = useCountries();
  const countryItems = useMemo(() => countries.map((c) => ({ id: c.code, name: c.name })), [countries]);

  const submit = useMutation({
    mutationFn: (f: BillingForm) => updateBillingProfile(trimBilling(f)),
    onSuccess: async (res) => {
      close();
      openStatus(toStatusState(res.profileStatus));
      await refreshProfile();
      await refreshAccount();
    },
  });

  const set = (field: keyof BillingForm, value: string) => {
    const next = { ...form, [field]: value };
    setForm(next);
    if (errors) setErrors(validateBilling(next));
  };
  const tryClose = () => {
    if (submit.isPending) return;
    if (!sameBilling(form, initial)) setConfirmClose(true);
    else close();
  };
  const onSubmit = () => {
    const found = validateBilling(form);
    setErrors(found);
    if (Object.keys(found).length === 0) submit.mutate(form);
  };
  const err = (f: BillingField) =>
    errors?.[f] ? t(`billing.errors.${errors[f]}`, { max: billingMax[f] }) : undefined;

  const text = (f: Exclude<BillingField, 'country'>, autoComplete: string, autoFocus = false) => (
    <TextField
      className="field"
      value={form[f]}
      onChange={(v) => set(f, v)}
      isInvalid={!!errors?.[f]}
      autoFocus={autoFocus}
    >
      <Label className="field-label">{t(`billing.fields.${f}`)}</Label>
      <Input className="input" autoComplete={autoComplete} maxLength={billingMax[f] + 20} />
      <FieldError className="field-error">{err(f)}</FieldError>
    </TextField>
  );

  return (
    <>
      <Dialog
        isOpen
        onClose={tryClose}
        title={t('billing.title')}
        width={560}
        footer={
          <>
            <Button className="button" onPress={tryClose}>
              {t('app.cancel')}
            </Button>
            <Button
              className="button primary"
              type="submit"
              form="billing-form"
              isDisabled={submit.isPending}
            >
              {submit.isPending && <Spinner size={16} />} {t('billing.submit')}
            </Button>
          </>
        }
      >
        <Form
          id="billing-form"
          className="billing-form"
          validationBehavior="aria"
          onSubmit={(e) => {
            e.preventDefault();
            onSubmit();
          }}
        >
          <p className="muted">{t('billing.lead')}</p>
          {submit.isError && (
            <p className="form-error" role="alert">
              {isApiError(submit.error) ? submit.error.retmsg : t('errors.generic')}
            </p>
          )}
          <div className="two-cols">
            {text('firstName', 'given-name', true)}
            {text('lastName', 'family-name')}
          </div>
          {text('address', 'street-address')}
          <div className="two-cols">
            {text('city', 'address-level2')}
            {text('province', 'address-level1')}
          </div>
          <div className="two-cols">
            <ComboBox
              className="field"
              allowsCustomValue
              inputValue={form.country}
              selectedKey={form.regionCode || null}
              onInputChange={(v) => {
                const match = countryItems.find((c) => c.name.toLowerCase() === v.trim().toLowerCase());
                const next = { ...form, country: v, regionCode: match?.id ?? '' };
                setForm(next);
                if (errors) setErrors(validateBilling(next));
              }}
              onSelectionChange={(key) => {
                const c = countryItems.find((i) => i.id === key);
                if (!c) return;
                const next = { ...form, country: c.name, regionCode: c.id };
                setForm(next);
                if (errors) setErrors(validateBilling(next));
              }}
              isInvalid={!!errors?.country}
              menuTrigger="input"
            >
              <Label className="field-label">{t('billing.fields.country')}</Label>
              <div className="combo">
                <Input className="input combo-input" autoComplete="country-name" />
                <Button className="combo-button" aria-label={t('billing.showCountries')}>
                  <span aria-hidden="true">▾</span>
                </Button>
              </div>
              <FieldError className="field-error">{err('country')}</FieldError>
              <Popover className="popover" placement="bottom start">
                <ListBox className="listbox" items={countryItems}>
                  {(item) => (
                    <ListBoxItem className="listbox-item" id={item.id} textValue={item.name}>
                      {item.name}
                    </ListBoxItem>
                  )}
                </ListBox>
              </Popover>
            </ComboBox>
            {text('postalCode', 'postal-code')}
          </div>
        </Form>
      </Dialog>
      <UnsavedChangesPrompt
        isOpen={confirmClose}
        onStay={() => setConfirmClose(false)}
        onDiscard={() => {
          setConfirmClose(false);
          close();
        }}
      />
    </>
  );
}
