import { Preferences, type ServiceLookup } from '../../kernel';
import { log } from './log';
import { meetingsState } from './state';

/* Its own module: the lazy chunk (meeting.ts) reads it, and must not import service.ts (see chunk.ts). */

/**
 * Reads uc-can-create-meetings, the one answer to "may this user start or schedule meetings" (the
 * server derives it from web meeting management and the role); kept for the commands. A failed read
 * leaves it unknown: the server still refuses what is not allowed.
 */
export async function readCanCreate(services: ServiceLookup): Promise<boolean | null> {
  try {
    meetingsState.canCreate = (await services.get(Preferences).get<boolean>('uc-can-create-meetings')) === true;
  } catch (err) {
    log.warn('uc-can-create-meetings not read', err);
  }
  return meetingsState.canCreate;
}
