import { Notifications, Session, type ServiceLookup } from '../../kernel';
import { loadOwnProfile } from './api';
import { log } from './log';
import { PROFILE_FAIL_TOAST_MS, PROFILE_REFRESH_MS, startProfileLoader } from './profileLoader';

/**
 * Keeps the session's copy of the signed-in user's profile (the account menu's name and photo, the
 * Profile panel) fresh for as long as the app runs: read again every 10 minutes, failed reads
 * retried with back-off, and an 8 s toast, whose tap or hiding tries again, once a retry failed too.
 * The copy that came with sign-in is the first load. Returns the stop.
 */
export function keepProfileFresh(services: ServiceLookup): () => void {
  const session = services.get(Session);
  const loader = startProfileLoader({
    load: () => loadOwnProfile(services),
    onData: (p) => Object.assign(session.profile, p),
    onFailure: (err, retry) => {
      log.warn('profile load', err);
      services.get(Notifications).toast({
        tone: 'error',
        titleKey: 'preferences:profile.loadFailedTitle',
        messageKey: 'preferences:profile.loadFailedMessage',
        timeoutMs: PROFILE_FAIL_TOAST_MS,
        action: { labelKey: 'preferences:profile.retry', run: retry },
        onClose: retry,
      });
    },
    firstInMs: PROFILE_REFRESH_MS,
  });
  return () => loader.stop();
}
