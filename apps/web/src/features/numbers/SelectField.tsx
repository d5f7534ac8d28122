import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';

/** A labelled select of string options (react-aria Select: keyboard and screen-reader ready). */
export function SelectField({
  label,
  value,
  options,
  onChange,
  isDisabled,
}: {
  label: string;
  value: string | null;
  options: { id: string; name: string }[];
  onChange: (id: string) => void;
  isDisabled?: boolean;
}) {
  return (
    <Select
      className="field numbers-select"
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
              {o.name}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}
