import { Session, type ServiceLookup } from '../../kernel';
import type { ContactsService, ProfileEditorService } from '../../contracts';
import { directory } from './directory';
import { ENTITY_PREFIX, isSelfEntry, listedName } from './search';
import type { DirEntry } from './directory';

/** Colleagues' directory ids are `u<user id>`. */
const userIdOf = (e: DirEntry): number | null => (e.source === 'User' && /^u\d+$/.test(e.id) ? Number(e.id.slice(1)) : null);

/** What other plugins ask of contacts: caller names by number, and who a palette entity is. */
export function contactsService(services: ServiceLookup): ContactsService {
  return {
    lookupNumber(number: string) {
      const e = directory.lookupNumber(number);
      return e ? { id: e.id, name: e.name, numbers: e.numbers } : undefined;
    },
    resolve(entityId: string) {
      const e = entityId.startsWith(ENTITY_PREFIX) ? directory.get(entityId.slice(ENTITY_PREFIX.length)) : undefined;
      return e ? { id: e.id, name: listedName(e), numbers: e.numbers, self: isSelfEntry(e, services.maybe(Session)?.userId ?? null), userId: userIdOf(e), email: e.email } : undefined;
    },
  };
}

/** The own-profile form, for the preferences' Profile panel: the screen's chunk, with its strings. */
export const profileEditor: ProfileEditorService = {
  load: () => import('./lazy').then(async (m) => (await m.strings(), m.OwnProfileForm)),
};
