import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { brand } from '../lib/config';
import { setLang } from '../lib/i18n';

/** EN / 中文 (hidden on the brands that hide it); the choice is kept. */
export function LanguageSwitch({ className = 'lang-switch' }: { className?: string }) {
  const { t, i18n } = useTranslation();
  if (brand.hideLanguageSwitch) return null;
  const zh = i18n.language === 'zh';
  return (
    <Button
      className={className}
      onPress={() => void setLang(zh ? 'en' : 'zh')}
      aria-label={zh ? t('rail.switchToEnLabel') : t('rail.switchToZhLabel')}
    >
      {zh ? t('rail.switchToEn') : t('rail.switchToZh')}
    </Button>
  );
}
