import { Button } from 'react-aria-components';

const KEYS: ReadonlyArray<readonly [string, string]> = [
  ['1', ''], ['2', 'ABC'], ['3', 'DEF'],
  ['4', 'GHI'], ['5', 'JKL'], ['6', 'MNO'],
  ['7', 'PQRS'], ['8', 'TUV'], ['9', 'WXYZ'],
  ['*', ''], ['0', ''], ['#', ''],
];

/** The 12 phone keys; each key's accessible name is its digit. */
export function KeyGrid({ label, onKey, id }: { label: string; onKey: (key: string) => void; id?: string }) {
  return (
    <div className="keypad" role="group" aria-label={label} id={id}>
      {KEYS.map(([key, letters]) => (
        <Button key={key} className="btn key" onPress={() => onKey(key)}>
          <span className="key-digit">{key}</span>
          <span className="key-letters" aria-hidden="true">
            {letters}
          </span>
        </Button>
      ))}
    </div>
  );
}
