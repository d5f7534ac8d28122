import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, FileTrigger, Link } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants, type KYCInfo } from '@numa/contract';
import { Dialog } from '../../components/Dialog';
import { Loading, Spinner, LoadFailed } from '../../components/Spinner';
import { isApiError } from '../../lib/api';
import { brand } from '../../lib/config';
import { refreshKyc, refreshProfile, useKycInfo } from '../../shared/api/account';
import { submitIdentityDocuments } from './api/kyc';
import { UnsavedChangesPrompt } from '../../components/UnsavedChanges';
import { checkIdentityFile, compressImage } from './images';
import { useSession } from '../../stores/session';
import { useIdentityDialog } from '../../shared/dialogs/identity';
import '../../components/status.css';
import './kyc.css';

type SlotName = keyof typeof constants.kycFiles;
type Slot = { kind: 'kept'; url: string } | { kind: 'new'; file: File; preview: string };
type Slots = Record<SlotName, Slot | null>;
type SectionId = 'card' | 'hold';

const sections: Record<SectionId, [SlotName, SlotName]> = {
  card: ['idCard1', 'idCard2'],
  hold: ['idHold1', 'idHold2'],
};
const urlField = constants.kycFiles;

const slotsOf = (info: KYCInfo): Slots => {
  const kept = (url: string): Slot | null => (url ? { kind: 'kept', url } : null);
  return {
    idCard1: kept(info.idCardUrl1),
    idCard2: kept(info.idCardUrl2),
    idHold1: kept(info.idHoldUrl1),
    idHold2: kept(info.idHoldUrl2),
  };
};

/** Upload and delete are allowed only at KYC status -1 and 100 (spec 000 §4). */
export const kycEditable = (status: number) =>
  status === constants.kycStatus.none || status === constants.kycStatus.refused;

/** The global proof-of-identity dialog; open it with `useIdentityDialog.getState().open()`. */
export function IdentityDialogHost() {
  const isOpen = useIdentityDialog((s) => s.isOpen);
  return isOpen ? <IdentityDialog /> : null;
}

function IdentityDialog() {
  const { t } = useTranslation();
  const close = useIdentityDialog((s) => s.close);
  const kyc = useKycInfo();
  if (kyc.isPending || kyc.isError) {
    return (
      <Dialog isOpen onClose={close} title={t('kyc.title')} width={560}>
        {kyc.isPending ? <Loading label={t('app.loading')} /> : <LoadFailed onRetry={() => kyc.refetch()} />}
      </Dialog>
    );
  }
  return <IdentityForm info={kyc.data} onClose={close} />;
}

/**
 * Proof of identity (spec 000 §2, §4, §5; spec 001 §4): 560 wide; a government photo ID (front and
 * back) and a photo holding it, 2 images per section; Submit needs a front and a back image and a
 * change; closing with changes asks first; a success dialog follows a submission.
 */
function IdentityForm({ info, onClose }: { info: KYCInfo; onClose: () => void }) {
  const { t } = useTranslation();
  const initial = useMemo(() => slotsOf(info), [info]);
  const [slots, setSlots] = useState<Slots>(initial);
  const [errors, setErrors] = useState<Partial<Record<SectionId, string>>>({});
  const [working, setWorking] = useState<SectionId | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  const editable = kycEditable(info.status) && !done;

  // object URLs of new images are released when they leave the form
  const previews = useRef(new Set<string>());
  useEffect(() => {
    const urls = previews.current;
    return () => urls.forEach((u) => URL.revokeObjectURL(u));
  }, []);

  const changed = (Object.keys(slots) as SlotName[]).some((k) => {
    const a = slots[k];
    const b = initial[k];
    if (a?.kind === 'new') return true;
    return (a?.kind === 'kept' ? a.url : '') !== (b?.kind === 'kept' ? b.url : '');
  });
  const canSubmit =
    editable && !!slots.idCard1 && !!slots.idCard2 && changed && !submitting && working === null;

  const addFiles = async (section: SectionId, files: FileList | null) => {
    if (!files || files.length === 0) return;
    setErrors((e) => ({ ...e, [section]: undefined }));
    setWorking(section);
    try {
      const free = sections[section].filter((k) => !slots[k]);
      const chosen = Array.from(files);
      if (chosen.length > free.length)
        setErrors((e) => ({
          ...e,
          [section]: t('kyc.errors.tooMany', { n: constants.identityImage.perSection }),
        }));
      const accepted: [SlotName, Slot][] = [];
      for (const file of chosen.slice(0, free.length)) {
        const problem = await checkIdentityFile(file);
        if (problem) {
          setErrors((e) => ({ ...e, [section]: t(`kyc.errors.${problem}`) }));
          continue;
        }
        const ready = await compressImage(file);
        const preview = URL.createObjectURL(ready);
        previews.current.add(preview);
        accepted.push([free[accepted.length]!, { kind: 'new', file: ready, preview }]);
      }
      if (accepted.length) setSlots((s) => ({ ...s, ...Object.fromEntries(accepted) }));
    } finally {
      setWorking(null);
    }
  };

  const remove = (name: SlotName) => {
    const slot = slots[name];
    if (slot?.kind === 'new') {
      URL.revokeObjectURL(slot.preview);
      previews.current.delete(slot.preview);
    }
    // the back moves up when the front goes, so the first slot is always the front
    setSlots((s) => {
      const next = { ...s, [name]: null };
      for (const [a, b] of Object.values(sections)) {
        if (!next[a] && next[b]) {
          next[a] = next[b];
          next[b] = null;
        }
      }
      return next;
    });
  };

  const submit = async () => {
    if (!canSubmit) return;
    setSubmitting(true);
    setSubmitError(null);
    const form = new FormData();
    for (const name of Object.keys(slots) as SlotName[]) {
      const slot = slots[name];
      if (slot?.kind === 'new') form.append(name, slot.file, slot.file.name);
      form.append(urlField[name], slot?.kind === 'kept' ? slot.url : '');
    }
    try {
      await submitIdentityDocuments(form);
      setDone(true);
      // the refresh after a submission (spec 000 §4)
      await refreshKyc();
      await refreshProfile();
    } catch (e) {
      setSubmitError(isApiError(e) ? e.retmsg : t('errors.generic'));
    } finally {
      setSubmitting(false);
    }
  };

  const tryClose = () => {
    if (submitting) return;
    if (editable && changed) setConfirmClose(true);
    else onClose();
  };

  if (done) {
    return (
      <Dialog
        isOpen
        onClose={onClose}
        role="alertdialog"
        width={400}
        title={t('kyc.successTitle')}
        footer={
          <Button className="button primary" onPress={onClose} autoFocus>
            {t('app.ok')}
          </Button>
        }
      >
        <div className="status-art done" aria-hidden="true">
          ✓
        </div>
        <p>{t('kyc.successText')}</p>
      </Dialog>
    );
  }

  const labelOf = (name: SlotName) => t(`kyc.slots.${name}`);
  const section = (id: SectionId) => {
    const names = sections[id];
    const full = names.every((n) => slots[n]);
    return (
      <section className="kyc-section" aria-labelledby={`kyc-${id}-title`}>
        <div className="kyc-section-head">
          <div className="grow">
            <h3 id={`kyc-${id}-title`}>{t(`kyc.${id}Title`)}</h3>
            <p className="muted small">{t(`kyc.${id}Hint`)}</p>
          </div>
          {editable && (
            <FileTrigger
              acceptedFileTypes={['image/png', 'image/jpeg']}
              allowsMultiple
              onSelect={(files) => void addFiles(id, files)}
            >
              <Button className="button" isDisabled={full || working !== null}>
                {working === id ? <Spinner size={16} /> : null} {t('kyc.upload')}
              </Button>
            </FileTrigger>
          )}
        </div>
        <ul className="kyc-thumbs" aria-label={t(`kyc.${id}Title`)}>
          {names.map((name) => {
            const slot = slots[name];
            return (
              <li key={name} className={`kyc-thumb ${slot ? '' : 'empty'}`}>
                {slot ? (
                  <>
                    {slot.kind === 'kept' ? (
                      <KeptImage url={slot.url} alt={labelOf(name)} />
                    ) : (
                      <img src={slot.preview} alt={labelOf(name)} />
                    )}
                    {editable && (
                      <Button
                        className="kyc-delete"
                        aria-label={t('kyc.delete', { label: labelOf(name) })}
                        onPress={() => remove(name)}
                      >
                        <span aria-hidden="true">×</span>
                      </Button>
                    )}
                  </>
                ) : editable ? (
                  <span className="kyc-placeholder" aria-hidden="true">
                    +
                  </span>
                ) : (
                  <span className="kyc-placeholder none">{t('kyc.none')}</span>
                )}
                <span className="kyc-thumb-label">{labelOf(name)}</span>
              </li>
            );
          })}
        </ul>
        {errors[id] && (
          <p className="field-error" role="alert">
            {errors[id]}
          </p>
        )}
      </section>
    );
  };

  return (
    <>
      <Dialog
        isOpen
        onClose={tryClose}
        title={t('kyc.title')}
        width={560}
        footer={
          editable ? (
            <Button className="button primary" onPress={() => void submit()} isDisabled={!canSubmit}>
              {submitting && <Spinner size={16} />} {t('kyc.submit')}
            </Button>
          ) : (
            <Button className="button primary" onPress={onClose}>
              {t('app.close')}
            </Button>
          )
        }
      >
        <KycStatusNote info={info} />
        {section('card')}
        {section('hold')}
        {editable && <p className="muted small">{t('kyc.rules')}</p>}
        {submitError && (
          <p className="form-error" role="alert">
            {submitError}
          </p>
        )}
      </Dialog>
      <UnsavedChangesPrompt
        isOpen={confirmClose}
        onStay={() => setConfirmClose(false)}
        onDiscard={() => {
          setConfirmClose(false);
          onClose();
        }}
      />
    </>
  );
}

/**
 * An image already on file. `/media` answers its owner by the auth-token header (or the cookie set at
 * sign-in); the header works even when the cookie is gone, so the bytes are fetched with it.
 */
function KeptImage({ url, alt }: { url: string; alt: string }) {
  const token = useSession((s) => s.token);
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!url.startsWith('/')) {
      setSrc(url);
      return;
    }
    let live = true;
    let objectUrl = '';
    fetch(url, { headers: token ? { 'auth-token': token } : {} })
      .then((r) => (r.ok ? r.blob() : Promise.reject(new Error(String(r.status)))))
      .then((blob) => {
        if (!live) return;
        objectUrl = URL.createObjectURL(blob);
        setSrc(objectUrl);
      })
      .catch(() => live && setSrc(url));
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url, token]);
  return src ? (
    <img src={src} alt={alt} />
  ) : (
    <span className="kyc-placeholder" role="img" aria-label={alt} aria-busy="true" />
  );
}

function KycStatusNote({ info }: { info: KYCInfo }) {
  const { t } = useTranslation();
  if (info.status === constants.kycStatus.refused) {
    return (
      <div className="refused-notice" role="alert">
        <p>{t('profile.refused')}</p>
        {info.refuseReason && <p>{t('billing.reason', { reason: info.refuseReason })}</p>}
        <Link href={`mailto:${brand.supportEmail}`}>{t('profile.contactSupport')}</Link>
      </div>
    );
  }
  if (info.status === constants.kycStatus.reviewing) return <p className="notice">{t('kyc.reviewing')}</p>;
  if (info.status === constants.kycStatus.verified)
    return <p className="notice success">{t('kyc.verified')}</p>;
  return <p className="muted">{t('kyc.lead')}</p>;
}
