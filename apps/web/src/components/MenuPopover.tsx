import type { RefObject } from 'react';
import { Menu, MenuItem, Popover } from 'react-aria-components';

export interface MenuEntry {
  id: string;
  label: string;
  danger?: boolean;
}

/** The open menu of a MenuButton (a chunk of its own). */
export function MenuPopover({
  triggerRef,
  label,
  items,
  onAction,
  onClose,
}: {
  triggerRef: RefObject<HTMLElement | null>;
  label: string;
  items: MenuEntry[];
  onAction(id: string): void;
  onClose(): void;
}) {
  return (
    <Popover
      triggerRef={triggerRef}
      isOpen
      onOpenChange={(open) => !open && onClose()}
      placement="bottom end"
      className="popover menu-popover"
    >
      <Menu
        className="menu"
        aria-label={label}
        autoFocus="first"
        onAction={(key) => {
          onClose();
          onAction(String(key));
        }}
      >
        {items.map((item) => (
          <MenuItem key={item.id} id={item.id} className={item.danger ? 'menu-item danger' : 'menu-item'}>
            {item.label}
          </MenuItem>
        ))}
      </Menu>
    </Popover>
  );
}
