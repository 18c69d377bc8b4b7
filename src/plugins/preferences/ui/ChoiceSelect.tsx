import type { Key } from 'react-aria-components';
import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';

/** One choice among a few, the panels' way: a labelled select whose list pops over the form. */
export function ChoiceSelect<K extends Key>({
  label,
  labelClassName,
  className,
  options,
  selectedKey,
  onChange,
  isRequired,
}: {
  label: string;
  labelClassName?: string;
  className: string;
  options: readonly { id: K; text: string }[];
  selectedKey: K | null;
  onChange: (key: K) => void;
  isRequired?: boolean;
}) {
  return (
    <Select className={className} selectedKey={selectedKey} onSelectionChange={(k) => k !== null && onChange(k as K)} isRequired={isRequired}>
      <Label className={labelClassName}>{label}</Label>
      <Button className="prefs-select">
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
