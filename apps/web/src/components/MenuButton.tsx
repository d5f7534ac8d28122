import { Suspense, useRef, useState, type ReactNode } from 'react';
import { Button } from 'react-aria-components';
import { lazyNamed } from './lazy';
import type { MenuEntry } from './MenuPopover';

export type { MenuEntry };

// react-aria's popover, focus scope and menu collection are a chunk fetched at the first open: a screen
// with a menu button on every row shows without them (docs/architecture.md, "Code splitting").
const MenuPopover = lazyNamed(() => import('./MenuPopover'), 'MenuPopover');

export interface MenuButtonProps {
  /** The button's accessible name. */
  label: string;
  className?: string;
  isDisabled?: boolean;
  /** What the button shows (an icon). */
  children: ReactNode;
  items: MenuEntry[];
  onAction(id: string): void;
}

/**
 * A button that opens a menu (react-aria's MenuTrigger semantics: `aria-haspopup`, `aria-expanded`,
 * the first item focused, Escape or a click outside closes, focus back on the button).
 */
export function MenuButton({ label, className, isDisabled, children, items, onAction }: MenuButtonProps) {
  const ref = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        ref={ref}
        className={className}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        isDisabled={isDisabled}
        onPress={() => setOpen(true)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setOpen(true);
          } else e.continuePropagation();
        }}
      >
        {children}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <MenuPopover
            triggerRef={ref}
            label={label}
            items={items}
            onAction={onAction}
            onClose={() => {
              setOpen(false);
              ref.current?.focus();
            }}
          />
        </Suspense>
      )}
    </>
  );
}
