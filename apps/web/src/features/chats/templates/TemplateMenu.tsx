import { Button, Menu, MenuItem, MenuTrigger, Popover, Text } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/Spinner';
import './templates.css';
import { useTemplates } from '../api/templates';

/**
 * The composer's Templates menu (issue 22 §3): the account's saved replies; choosing one inserts its
 * text. Opened by its button, or by `/` typed at the start of an empty message box (the Composer).
 */
export function TemplateMenu({
  isOpen,
  onOpenChange,
  onPick,
  isDisabled,
}: {
  isOpen: boolean;
  onOpenChange(open: boolean): void;
  onPick(text: string, name: string): void;
  isDisabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <MenuTrigger isOpen={isOpen} onOpenChange={onOpenChange}>
      <Button className="button composer-templates" isDisabled={isDisabled ?? false}>
        {t('messaging.templates.menu')}
      </Button>
      <Popover className="popover menu-popover" placement="top start">
        <TemplateList onPick={onPick} />
      </Popover>
    </MenuTrigger>
  );
}

/** The menu's items: read (and the list fetched) only while the menu is open. */
function TemplateList({ onPick }: { onPick(text: string, name: string): void }) {
  const { t } = useTranslation();
  const list = useTemplates();
  const templates = list.data?.templates ?? [];
  return (
    <>
      {list.isPending ? (
        <div className="menu-note" role="status">
          <Spinner size={14} /> {t('app.loading')}
        </div>
      ) : templates.length === 0 ? (
        <Menu aria-label={t('messaging.templates.menu')} className="menu" items={[{ id: 'none' }]}>
          {() => (
            <MenuItem
              className="menu-item"
              id="none"
              isDisabled
              textValue={t('messaging.templates.menuEmpty')}
            >
              {t('messaging.templates.menuEmpty')}
            </MenuItem>
          )}
        </Menu>
      ) : (
        <Menu
          aria-label={t('messaging.templates.menu')}
          className="menu templates-menu"
          items={templates}
          onAction={(id) => {
            const tpl = templates.find((x) => x.id === id);
            if (tpl) onPick(tpl.text, tpl.name);
          }}
        >
          {(tpl) => (
            <MenuItem className="menu-item" id={tpl.id} textValue={tpl.name}>
              <Text slot="label">{tpl.name}</Text>
              <Text slot="description" className="muted templates-menu-text">
                {tpl.text}
              </Text>
            </MenuItem>
          )}
        </Menu>
      )}
    </>
  );
}
