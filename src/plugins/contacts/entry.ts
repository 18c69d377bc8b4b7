import { CONTACTS_PROVIDER } from '../../contracts';
import type { DirEntry } from './directory';

/** What the service (at boot) and the palette's entities (the later part) both say of a directory entry. */
export const ENTITY_PREFIX = `${CONTACTS_PROVIDER}:`;
export const isSelfEntry = (e: DirEntry, selfId: number | null) => e.source === 'User' && selfId !== null && e.id === `u${selfId}`;
/** What a contact is called in the palette: its name, else what else there is of it. */
export const listedName = (e: DirEntry) => e.name || e.email || e.numbers[0] || e.company || e.id;
