import { Preferences, type ServiceLookup } from '../../kernel';
import { log } from './log';

/** Whether the user has finished or ended the tour (uc-tutorial-completed); unknown counts as finished, so a failing server never nags. */
export async function tourCompleted(s: ServiceLookup): Promise<boolean> {
  try {
    return (await s.get(Preferences).get<boolean>('uc-tutorial-completed')) === true;
  } catch (err) {
    log.error('reading uc-tutorial-completed failed', err);
    return true;
  }
}

export async function saveCompleted(s: ServiceLookup): Promise<void> {
  await s.get(Preferences).set('uc-tutorial-completed', true).catch((err: unknown) => log.error('saving uc-tutorial-completed failed', err));
}

/** The logo admin saw the logo step (uc-tutorial-logo-upload). */
export async function saveLogoStepSeen(s: ServiceLookup): Promise<void> {
  await s.get(Preferences).set('uc-tutorial-logo-upload', true).catch((err: unknown) => log.error('saving uc-tutorial-logo-upload failed', err));
}
