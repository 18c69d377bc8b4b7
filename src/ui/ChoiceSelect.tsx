import type { Key } from 'react-aria-components';
import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';

export interface Choice<K extends Key> {
  id: K;
  text: string;
}

/**
 * One choice among a few: React Aria's Select with its button, popover and list, as every screen
 * draws it. Named by a visible `label`, or by `ariaLabel` where the label is elsewhere (a table's
 * column header).
 */
export function ChoiceSelect<K extends Key>({
  label,
  ariaLabel,
  labelClassName,
  className,
  buttonClassName = 'btn',
  options,
  selectedKey,
  onChange,
  isRequired,
  isDisabled,
}: {
  label?: string;
  ariaLabel?: string;
  labelClassName?: string;
  className: string;
  buttonClassName?: string;
  options: readonly Choice<K>[];
  selectedKey: K | null;
  onChange: (key: K) => void;
  isRequired?: boolean;
  isDisabled?: boolean;
}) {
  return (
    <Select className={className} aria-label={ariaLabel} selectedKey={selectedKey} onSelectionChange={(k) => k !== null && onChange(k as K)} isRequired={isRequired} isDisabled={isDisabled}>
      {label !== undefined && <Label className={labelClassName}>{label}</Label>}
      <Button className={buttonClassName}>
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <Popover className="popover">
        <ListBox className="menu">
          {options.map((o) => (
            <ListBoxItem key={o.id} id={o.id} className="menu-item" textValue={o.text}>
              {o.text}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
}
