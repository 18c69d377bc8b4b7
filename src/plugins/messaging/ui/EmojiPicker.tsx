import { Suspense, use, useMemo, useState } from 'react';
import { Button, DialogTrigger, Input, ListBox, ListBoxItem, Popover, SearchField, Tab, TabList, TabPanel, Tabs, type Key } from 'react-aria-components';
import { EMOJI_GROUPS, readRecent, rememberEmoji, searchEmoji, type Emoji, type EmojiData } from '../emoji/emoji';
import { loadEmojiData, retryEmojiDataIfFailed } from '../emoji/load';
import { useChatT } from './useChatT';

/** The first emoji of each group marks its tab. */
const TAB_ICON: Record<'recent' | (typeof EMOJI_GROUPS)[number], string> = { recent: '🕘', smiles: '😀', people: '👋', nature: '🌿', food: '🍎', travel: '✈️' };

/** One group (or the search results) as a grid: arrows move in two dimensions, Enter or a click inserts. */
function EmojiGrid({ label, items, onPick, empty }: { label: string; items: readonly Emoji[]; onPick(char: string): void; empty: string }) {
  return (
    <ListBox
      aria-label={label}
      layout="grid"
      items={items}
      selectionMode="none"
      onAction={(k: Key) => onPick(String(k))}
      className="emoji-grid"
      renderEmptyState={() => <p className="muted emoji-empty">{empty}</p>}
    >
      {(e) => (
        <ListBoxItem id={e.char} textValue={e.name} aria-label={e.name} className="emoji-cell">
          <span aria-hidden="true">{e.char}</span>
        </ListBoxItem>
      )}
    </ListBox>
  );
}

function EmojiPanel({ onPick }: { onPick(char: string): void }) {
  const t = useChatT();
  const data = use(loadEmojiData());
  if (!data) return <p role="alert">{t('emoji.failed')}</p>;
  return <EmojiChooser data={data} onPick={onPick} />;
}

function EmojiChooser({ data, onPick }: { data: EmojiData; onPick(char: string): void }) {
  const t = useChatT();
  const [term, setTerm] = useState('');
  // Read once per opening: picking closes the picker, and the next opening shows the new order.
  const recent = useMemo(() => readRecent().map((c) => data.byChar.get(c) ?? { char: c, name: c, group: 'smiles' as const }), [data]);
  const [tab, setTab] = useState<Key>(recent.length ? 'recent' : 'smiles');
  const pick = (char: string) => {
    rememberEmoji(char);
    onPick(char);
  };
  const found = term.trim() ? searchEmoji(data.all, term) : null;
  return (
    <>
      <SearchField aria-label={t('emoji.search')} value={term} onChange={setTerm} autoFocus className="field emoji-search">
        <Input className="input" placeholder={t('emoji.search')} />
      </SearchField>
      {found ? (
        <EmojiGrid label={t('emoji.results')} items={found} onPick={pick} empty={t('emoji.noMatch')} />
      ) : (
        <Tabs selectedKey={tab} onSelectionChange={setTab} className="emoji-tabs">
          <TabList aria-label={t('emoji.groups')} className="emoji-tablist">
            {(['recent', ...EMOJI_GROUPS] as const).map((g) => (
              <Tab key={g} id={g} aria-label={t(`emoji.group.${g}`)} className="emoji-tab">
                <span aria-hidden="true" title={t(`emoji.group.${g}`)}>
                  {TAB_ICON[g]}
                </span>
              </Tab>
            ))}
          </TabList>
          <TabPanel id="recent" className="emoji-panel">
            <EmojiGrid label={t('emoji.group.recent')} items={recent} onPick={pick} empty={t('emoji.noRecent')} />
          </TabPanel>
          {EMOJI_GROUPS.map((g) => (
            <TabPanel key={g} id={g} className="emoji-panel">
              <EmojiGrid label={t(`emoji.group.${g}`)} items={data.groups[g]} onPick={pick} empty={t('emoji.noMatch')} />
            </TabPanel>
          ))}
        </Tabs>
      )}
    </>
  );
}

/**
 * The emoji button of the message input and its picker (a dialog: search, then the groups as tabs,
 * each a grid). `onPick` inserts at the caret; the picker then closes.
 */
export function EmojiPicker({ onPick, isDisabled, isOpen, onOpenChange }: { onPick(char: string): void; isDisabled?: boolean; isOpen: boolean; onOpenChange(open: boolean): void }) {
  const t = useChatT();
  return (
    <DialogTrigger
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (open) retryEmojiDataIfFailed();
        onOpenChange(open);
      }}
    >
      <Button className="btn icon" aria-label={t('emoji.open')} isDisabled={isDisabled}>
        <span aria-hidden="true">😊</span>
      </Button>
      {/* The popover is the dialog itself (no Dialog inside): its dismiss buttons then sit inside the dialog too. */}
      <Popover className="popover emoji-popover emoji-dialog" placement="top end" aria-label={t('emoji.dialog')}>
        <Suspense fallback={<p className="muted">{t('emoji.loading')}</p>}>
          <EmojiPanel
            onPick={(c) => {
              onOpenChange(false);
              onPick(c);
            }}
          />
        </Suspense>
      </Popover>
    </DialogTrigger>
  );
}
