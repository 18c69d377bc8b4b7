import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';

export interface LanguageOption {
  id: string;
  /** The language's own name ("Deutsch", "العربية"), marked with its language for screen readers. */
  name: string;
}

/** The language picker of the login page and of the General preferences: each language named in itself. */
export function LanguageSelect(props: {
  label: string;
  value: string;
  options: readonly LanguageOption[];
  onChange: (id: string) => void;
  className?: string;
  labelClassName?: string;
  buttonClassName?: string;
}) {
  return (
    <Select className={props.className} selectedKey={props.value} onSelectionChange={(key) => props.onChange(String(key))}>
      <Label className={props.labelClassName}>{props.label}</Label>
      <Button className={props.buttonClassName}>
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <Popover className="popover">
        <ListBox className="menu">
          {props.options.map((l) => (
            <ListBoxItem key={l.id} id={l.id} className="menu-item" textValue={l.name} lang={l.id}>
              {l.name}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
}
