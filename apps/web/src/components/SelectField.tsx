import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';

/**
 * A labelled select of string options (react-aria Select: keyboard and screen-reader ready); an
 * option's `detail` (a calling code, say) shows muted beside its name.
 */
export function SelectField({
  label,
  value,
  options,
  onChange,
  isDisabled,
  className = 'field',
}: {
  label: string;
  value: string | null;
  options: { id: string; name: string; detail?: string }[];
  onChange: (id: string) => void;
  isDisabled?: boolean;
  className?: string;
}) {
  return (
    <Select
      className={className}
      selectedKey={value}
      onSelectionChange={(k) => onChange(String(k))}
      isDisabled={!!isDisabled}
    >
      <Label className="field-label">{label}</Label>
      <Button className="input select-button">
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <Popover className="popover">
        <ListBox className="listbox" items={options}>
          {(o) => (
            <ListBoxItem id={o.id} className="listbox-item" textValue={o.name}>
              <span>{o.name}</span>
              {o.detail ? <span className="muted">{o.detail}</span> : null}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}
