import type { RefObject } from 'react';
import { Menu, MenuItem, Popover } from 'react-aria-components';
import { useTranslation } from 'react-i18next';

/**
 * A chat's context menu (delete), under the pointer. A chunk of its own, mounted by ChatList only
 * while open: react-aria's popover and menu collection are not needed to show the list.
 */
export function ChatMenu({
  anchorRef,
  onClose,
  onDelete,
}: {
  anchorRef: RefObject<HTMLDivElement | null>;
  onClose(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation();
  return (
    <Popover
      triggerRef={anchorRef}
      isOpen
      onOpenChange={(open) => !open && onClose()}
      placement="bottom start"
      offset={2}
      className="popover chat-menu-popover"
    >
      <Menu
        className="chat-menu"
        aria-label={t('chats.menu.label')}
        autoFocus="first"
        onAction={(action) => {
          if (action === 'delete') onDelete();
          onClose();
        }}
      >
        <MenuItem id="delete" className="chat-menu-item danger">
          {t('chats.menu.delete')}
        </MenuItem>
      </Menu>
    </Popover>
  );
}
