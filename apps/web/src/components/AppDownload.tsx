import { useEffect, useState } from 'react';
import { Button, Link } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';
import { brand } from '../lib/config';

function Qr({ url, label }: { url: string; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    // the QR encoder is a chunk of its own, loaded when the dialog opens
    import('qrcode')
      .then(({ default: QRCode }) =>
        QRCode.toDataURL(url, { margin: 1, width: 160, color: { dark: '#111827', light: '#ffffff' } }),
      )
      .then(
        (d) => live && setSrc(d),
        () => live && setSrc(null),
      );
    return () => {
      live = false;
    };
  }, [url]);
  return src ? (
    <img src={src} alt={label} width={160} height={160} />
  ) : (
    <span className="qr-placeholder" aria-hidden="true" />
  );
}

/** The app-download dialog: QR codes for the two stores, plus the APK link on the brand that has one. */
export function AppDownloadButton({ className = 'link-button' }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const name = brand.name[i18n.language === 'zh' ? 'zh' : 'en'];
  return (
    <>
      <Button className={className} onPress={() => setOpen(true)}>
        {t('login.getApp')}
      </Button>
      <Dialog
        isOpen={open}
        onClose={() => setOpen(false)}
        title={t('apps.title', { brand: name })}
        width={440}
      >
        <p className="muted">{t('apps.scan')}</p>
        <div className="qr-row">
          <figure>
            <Qr url={brand.apps.ios} label={t('apps.qr', { store: t('apps.ios') })} />
            <figcaption>
              <Link href={brand.apps.ios} target="_blank" rel="noreferrer">
                {t('apps.ios')}
              </Link>
            </figcaption>
          </figure>
          <figure>
            <Qr url={brand.apps.android} label={t('apps.qr', { store: t('apps.android') })} />
            <figcaption>
              <Link href={brand.apps.android} target="_blank" rel="noreferrer">
                {t('apps.android')}
              </Link>
            </figcaption>
          </figure>
        </div>
        {brand.apps.apk && (
          <p>
            <Link className="button block" href={brand.apps.apk} target="_blank" rel="noreferrer">
              {t('apps.apk')}
            </Link>
          </p>
        )}
      </Dialog>
    </>
  );
}
