import { useId } from 'react';

/**
 * A labelled select of string options: the platform's own `<select>`, so a phone opens its native
 * picker, the keyboard and screen readers get the control they know, and a list of 250 countries
 * costs the page nothing until it is opened (docs/decisions.md, "Every screen fast on a phone"). An
 * option's `detail` (a calling code, say) follows its name in brackets.
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
  const id = useId();
  const known = value !== null && options.some((o) => o.id === value);
  return (
    <div className={className}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="input select-native"
        value={known ? value : ''}
        disabled={!!isDisabled}
        onChange={(e) => onChange(e.target.value)}
      >
        {/* nothing chosen yet: an empty first line that cannot be chosen back */}
        {!known && <option value="" disabled />}
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.detail ? `${o.name} (${o.detail})` : o.name}
          </option>
        ))}
      </select>
    </div>
  );
}
