import { loadOrCreateSecret, SECRET_NAMES } from '../services/layout';

export interface JanusRoomKeys {
  /** The plugins' admin key: only the API creates and destroys rooms. */
  adminKey: string;
  /** What every room's PIN and moderation secret derive from, so a restarted Janus gets the same ones. */
  rooms: Buffer;
}

/** Reads the keys once for whoever asks (the videorooms, the phones' audio bridges); a failed read is tried again. */
export function janusRoomKeys(runtimeDir: string): () => Promise<JanusRoomKeys> {
  let keys: Promise<JanusRoomKeys> | null = null;
  return () =>
    (keys ??= (async () => ({
      adminKey: (await loadOrCreateSecret(runtimeDir, SECRET_NAMES.janusRoomAdmin)).toString('base64url'),
      rooms: await loadOrCreateSecret(runtimeDir, SECRET_NAMES.janusRooms),
    }))().catch((err: unknown) => {
      keys = null;
      throw err;
    }));
}
