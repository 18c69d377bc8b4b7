import { Session, toDisposable, type ServiceLookup } from '../../kernel';
import type { ContactGroupsService, ContactsService, ProfileEditorService, ResolvedContact } from '../../contracts';
import { inGroup } from './filter';
import { directory } from './directory';
import { ENTITY_PREFIX, isSelfEntry, listedName } from './entry';
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
      return e ? resolved(e, services) : undefined;
    },
  };
}

const resolved = (e: DirEntry, services: ServiceLookup): ResolvedContact => ({
  id: e.id,
  name: listedName(e),
  numbers: e.numbers,
  self: isSelfEntry(e, services.maybe(Session)?.userId ?? null),
  userId: userIdOf(e),
  email: e.email,
});

/** A group's first few people (the dashboard's card), from the directory the palette already holds. */
export function contactGroupsService(services: ServiceLookup): ContactGroupsService {
  return {
    first(group, limit) {
      const out: ResolvedContact[] = [];
      for (const e of directory.entries ?? []) {
        if (out.length >= limit) break;
        if (inGroup(e, group)) out.push(resolved(e, services));
      }
      return out;
    },
    loaded: () => directory.entries !== null,
    onChange: (listener) => toDisposable(directory.subscribe(listener)),
  };
}

/** The own-profile form, for the preferences' Profile panel: the screen's chunk, with its strings. */
export const profileEditor: ProfileEditorService = {
  load: () => import('./lazy').then(async (m) => (await m.strings(), m.OwnProfileForm)),
};
