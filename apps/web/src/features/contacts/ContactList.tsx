import { memo, useRef, type MouseEvent } from 'react';
import { Button, Checkbox } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants } from '@numa/contract';
import { MenuButton } from '../../components/MenuButton';
import { useRowsVirtualizer } from '../../lib/useRowsVirtualizer';
import { formatPhone, type ContactView, type ListRow } from './logic';

/** Height of a letter header row. */
export const HEADER_HEIGHT = 30;
const rowHeight = (row: ListRow | undefined) =>
  row?.kind === 'header' ? HEADER_HEIGHT : constants.contactRowHeight;

export interface ContactListProps {
  rows: ListRow[];
  selected: ReadonlySet<string>;
  /** Checkboxes show on every row (not only on hover). */
  selecting: boolean;
  activeId: string | null;
  onToggle: (id: string) => void;
  onOpen: (c: ContactView) => void;
  onEdit: (c: ContactView) => void;
  onDelete: (c: ContactView) => void;
}

/**
 * The address book as a virtual list (spec 000 §2): only the rows in view (and a few around them)
 * are in the page, so 10,000 contacts scroll as smoothly as 10. Contact rows are 62 high.
 */
export function ContactList({
  rows,
  selected,
  selecting,
  activeId,
  onToggle,
  onOpen,
  onEdit,
  onDelete,
}: ContactListProps) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useRowsVirtualizer(rows, scroller, rowHeight, 6);
  const contactCount = rows.reduce((n, r) => n + (r.kind === 'contact' ? 1 : 0), 0);

  return (
    <div
      ref={scroller}
      className="contact-scroller"
      role="list"
      aria-label={t('contacts.listLabel', { count: contactCount })}
      data-testid="contact-list"
    >
      <div role="none" className="contact-canvas" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          if (row.kind === 'header') {
            return (
              <div
                key={row.key}
                role="listitem"
                className="contact-group"
                style={{ transform: `translateY(${item.start}px)`, height: item.size }}
                aria-label={t('contacts.group', { group: row.group })}
              >
                <span aria-hidden="true">{row.group}</span>
              </div>
            );
          }
          return (
            <ContactRow
              key={row.key}
              contact={row.contact}
              start={item.start}
              size={item.size}
              isSelected={selected.has(row.contact.id)}
              selecting={selecting}
              active={activeId === row.contact.id}
              onToggle={onToggle}
              onOpen={onOpen}
              onEdit={onEdit}
              onDelete={onDelete}
            />
          );
        })}
      </div>
    </div>
  );
}

interface RowProps {
  contact: ContactView;
  /** Position in the list (numbers, so the memo holds while scrolling). */
  start: number;
  size: number;
  isSelected: boolean;
  selecting: boolean;
  active: boolean;
  onToggle: (id: string) => void;
  onOpen: (c: ContactView) => void;
  onEdit: (c: ContactView) => void;
  onDelete: (c: ContactView) => void;
}

const ContactRow = memo(function ContactRow({
  contact: c,
  start,
  size,
  isSelected,
  selecting,
  active,
  onToggle,
  onOpen,
  onEdit,
  onDelete,
}: RowProps) {
  const { t } = useTranslation();
  // a click anywhere on the row opens the editor, except on its checkbox and its menu
  const onRowClick = (e: MouseEvent<HTMLDivElement>) => {
    if ((e.target as HTMLElement).closest('button, label, input, [role="menu"], [role="menuitem"]')) return;
    if (selecting) onToggle(c.id);
    else onOpen(c);
  };
  return (
    <div
      role="listitem"
      className={`contact-row${isSelected ? ' selected' : ''}${selecting ? ' selecting' : ''}${active ? ' active' : ''}`}
      style={{ transform: `translateY(${start}px)`, height: size }}
      onClick={onRowClick}
      data-testid="contact-row"
      data-id={c.id}
    >
      <div className="contact-check">
        <span className={`avatar c${c.colour}`} aria-hidden="true">
          {c.initial}
        </span>
        <Checkbox
          className="row-checkbox"
          isSelected={isSelected}
          onChange={() => onToggle(c.id)}
          aria-label={t('contacts.selectOne', { name: c.name })}
        >
          <span className="checkbox-box" aria-hidden="true">
            <svg viewBox="0 0 18 18" width="14" height="14">
              <polyline points="3.5 9.5 7.5 13 14.5 5" fill="none" stroke="currentColor" strokeWidth="2.4" />
            </svg>
          </span>
        </Checkbox>
      </div>
      <Button className="contact-name" onPress={() => (selecting ? onToggle(c.id) : onOpen(c))}>
        {c.name}
      </Button>
      <div className="contact-phones">
        {c.phoneList.slice(0, 3).map((p, i) => (
          <span key={i} dir="ltr">
            {formatPhone(p.phone, p.telCode)}
          </span>
        ))}
      </div>
      <div className="contact-email" title={c.email}>
        {c.email}
      </div>
      <div className="contact-company" title={c.companyName}>
        {c.companyName}
      </div>
      <MenuButton
        className="icon-button row-menu"
        label={t('contacts.rowMenu', { name: c.name })}
        items={[
          { id: 'edit', label: t('contacts.edit') },
          { id: 'delete', label: t('contacts.delete'), danger: true },
        ]}
        onAction={(key) => (key === 'edit' ? onEdit(c) : onDelete(c))}
      >
        <span aria-hidden="true">⋯</span>
      </MenuButton>
    </div>
  );
});
