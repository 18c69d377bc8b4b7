import { GridList, GridListItem } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { feedTime, type FeedItem } from '../model';

/** The line a screen reader hears for an item, and what the row shows first. */
export function feedLabel(i: FeedItem, t: (key: string, values?: Record<string, unknown>) => string): string {
  if (i.kind === 'voicemail') return t(i.unread ? 'feed.voicemailUnread' : 'feed.voicemail', { name: i.name });
  if (i.kind === 'call') return t(`feed.call.${i.direction}`, { name: i.name });
  return t(i.own ? 'feed.messageOwn' : 'feed.message', { name: i.name });
}

/** Voicemail, calls and messages, newest first; Enter (or a click) opens the item where it lives. */
export function FeedCard({ items, failed, onOpen }: { items: readonly FeedItem[] | null; failed: boolean; onOpen: (item: FeedItem) => void }) {
  const { t, i18n } = useTranslation('dashboard');
  const now = Date.now();
  return (
    <section className="dash-card dash-feed" aria-labelledby="dash-feed-heading">
      <h2 id="dash-feed-heading" className="dash-card-title">
        {t('feed.heading')}
      </h2>
      {failed && (
        <p className="dash-muted" role="status">
          {t('feed.failed')}
        </p>
      )}
      {items === null ? (
        <p className="dash-muted">{t('feed.loading')}</p>
      ) : (
        <GridList
          className="dash-feed-list"
          aria-labelledby="dash-feed-heading"
          items={items}
          onAction={(key) => {
            const item = items.find((i) => i.key === key);
            if (item) onOpen(item);
          }}
          renderEmptyState={() => <p className="dash-muted">{t('feed.empty')}</p>}
        >
          {(i) => {
            const label = feedLabel(i, t);
            const when = feedTime(i.at, now, i18n.language);
            const text = i.kind === 'message' ? i.text : '';
            return (
              <GridListItem id={i.key} className="dash-feed-item" textValue={[label, text, when].filter(Boolean).join(', ')} data-kind={i.kind} data-unread={i.kind === 'voicemail' && i.unread ? true : undefined}>
                <span className="dash-feed-main">
                  <span className="dash-feed-label">{label}</span>
                  {text && <span className="dash-feed-text">{text}</span>}
                </span>
                <span className="dash-feed-time">{when}</span>
              </GridListItem>
            );
          }}
        </GridList>
      )}
    </section>
  );
}
