import { Button } from 'react-aria-components';

export interface ListPendingProps {
  /** Loading failed: say so (an alert) and offer Retry; otherwise the list is still loading. */
  failed: boolean;
  onRetry(): void;
  /** The screen's own words (its namespace's list.error, list.retry and list.loading). */
  text: { error: string; retry: string; loading: string };
  /** Placeholder rows drawn while loading; none: an empty busy list. */
  skeletonRows?: number;
}

/**
 * A list that is not there yet, as every list screen shows it: busy (announced, with placeholder
 * rows) while it loads, or why it failed with Retry.
 */
export function ListPending({ failed, onRetry, text, skeletonRows = 0 }: ListPendingProps) {
  if (failed) {
    return (
      <div className="empty-state" role="alert">
        <p>{text.error}</p>
        <Button className="btn" onPress={onRetry}>
          {text.retry}
        </Button>
      </div>
    );
  }
  return (
    <div className="list" role="status" aria-busy="true">
      <span className="visually-hidden">{text.loading}</span>
      {Array.from({ length: skeletonRows }, (_, i) => (
        <div key={i} className="skeleton-row" aria-hidden="true" />
      ))}
    </div>
  );
}
