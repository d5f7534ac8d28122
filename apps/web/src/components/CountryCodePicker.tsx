import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover } from 'react-aria-components';
import { useCountries } from '../lib/countries';

export interface CountryCodePickerProps {
  label: string;
  /** ISO region code of the choice (several regions share +1). */
  region: string;
  onChange: (region: string, telCode: string) => void;
  isInvalid?: boolean;
}

/** A searchable country-code selector: type a country name or a code. */
export function CountryCodePicker({ label, region, onChange, isInvalid }: CountryCodePickerProps) {
  const { t } = useTranslation();
  const { data: countries = [], isPending } = useCountries();
  const items = useMemo(
    () =>
      countries.map((c) => ({
        id: c.code,
        label: `${c.name} +${c.telCode}`,
        telCode: c.telCode,
        name: c.name,
      })),
    [countries],
  );
  const selected = items.find((i) => i.id === region);
  return (
    <ComboBox
      className="field country-picker"
      selectedKey={region}
      onSelectionChange={(key) => {
        const c = items.find((i) => i.id === key);
        if (c) onChange(c.id, c.telCode);
      }}
      defaultFilter={(text, input) => text.toLowerCase().includes(input.toLowerCase().replace(/^\+/, ''))}
      isInvalid={isInvalid}
      menuTrigger="focus"
      // typed before the list arrived: the popover opens on the loading state and fills in place
      allowsEmptyCollection
      aria-label={label}
    >
      <Label className="field-label">{label}</Label>
      <div className="combo">
        <span className="combo-prefix" aria-hidden="true">
          {selected ? `+${selected.telCode}` : '+'}
        </span>
        <Input className="input combo-input" />
        <Button className="combo-button" aria-label={label}>
          <span aria-hidden="true">▾</span>
        </Button>
      </div>
      <Popover className="popover" placement="bottom start">
        <ListBox
          className="listbox"
          items={items}
          renderEmptyState={() => (
            <div className="listbox-empty muted" role="status">
              {isPending ? t('app.loading') : t('app.noCountryMatch')}
            </div>
          )}
        >
          {(item) => (
            <ListBoxItem className="listbox-item" id={item.id} textValue={item.label}>
              <span>{item.name}</span>
              <span className="muted">+{item.telCode}</span>
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
