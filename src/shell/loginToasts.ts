import type { Notifier } from '../kernel';
import { createNotifier } from './notices';
import { announcer } from './announcer';

let notifier: Notifier | null = null;
/** Before login there is no kernel; the login page uses the same toast queue directly. */
export function createNotifierForLogin(): Notifier {
  notifier ??= createNotifier(announcer);
  return notifier;
}
