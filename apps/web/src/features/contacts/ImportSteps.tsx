import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { brand } from '../../lib/config';
import { AppDownloadButton } from '../../components/AppDownload';

/**
 * The empty address book (spec 000 §2): three steps to import the phone's contacts through the app's
 * cloud sync, or add one here.
 */
export function ImportSteps({ onAdd }: { onAdd: () => void }) {
  const { t, i18n } = useTranslation();
  const name = brand.name[i18n.language === 'zh' ? 'zh' : 'en'];
  return (
    <section className="import-steps" aria-labelledby="import-title">
      <h3 id="import-title">{t('contacts.emptyTitle')}</h3>
      <p className="muted">{t('contacts.emptyLead')}</p>
      <ol>
        <li>
          <span className="step-number" aria-hidden="true">
            1
          </span>
          <span>{t('contacts.importStep1', { brand: name })}</span>
        </li>
        <li>
          <span className="step-number" aria-hidden="true">
            2
          </span>
          <span>{t('contacts.importStep2')}</span>
        </li>
        <li>
          <span className="step-number" aria-hidden="true">
            3
          </span>
          <span>{t('contacts.importStep3')}</span>
        </li>
      </ol>
      <div className="import-actions">
        <Button className="button primary" onPress={onAdd}>
          {t('contacts.add')}
        </Button>
        <AppDownloadButton className="button" />
      </div>
    </section>
  );
}
