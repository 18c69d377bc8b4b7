import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Inside the frame (the frame renders the heading): unknown routes and failed transitions. */
export function NotFoundScreen({ error }: { error?: unknown }) {
  const { t } = useTranslation('shell');
  useEffect(() => {
    if (error) console.error('route failed', error);
  }, [error]);
  return (
    <div className="not-found">
      <p>{t('notFound.body')}</p>
      <Link to="/" className="btn primary">
        {t('notFound.home')}
      </Link>
    </div>
  );
}

/** Outside the frame: a page of its own with its landmark and heading. */
export function NotFoundPage() {
  const { t } = useTranslation('shell');
  return (
    <main className="standalone">
      <h1>{t('notFound.title')}</h1>
      <NotFoundScreen />
    </main>
  );
}
