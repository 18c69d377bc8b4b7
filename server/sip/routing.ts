import type { ForwardSetting } from '../../src/wire/calling';
import type { FindMe, InboundRoutes } from '../../src/wire/inbound';
import { access } from 'node:fs/promises';
import { writeNamedAnnouncement } from '../calls/find-me-name';
import { recordedNameOfExtension } from '../calls/repository';
import type { Queryable } from '../db/types';
import { RING_TIME_MS } from '../services/kamailio';
import { announceFiles } from '../services/voicemail-accounts';
import type { VoicemailBox } from '../voicemail/deposit';
import { decideRoute, encodeDecision, type CalleeRules, type Decision, type RouteEvent } from './decision';
import { isExtension } from './extension';

interface CalleeRow {
  extension: string;
  do_not_disturb: boolean;
  forward_always: ForwardSetting | null;
  forward_default: ForwardSetting | null;
  inbound_routes: InboundRoutes | null;
  find_me: FindMe | null;
  /** User id → extension of the users the rules' box and ext values name. */
  users: Record<string, string> | null;
  /** Group id → its members' extensions, for the rules' group values. */
  groups: Record<string, string[]> | null;
}

export async function calleeRules(db: Queryable, callee: string): Promise<CalleeRules | null> {
  if (!isExtension(callee)) return null;
  // The query is the database function of migration 041 (a cached plan: Kamailio waits for it).
  const row = (await db.query<{ rules: CalleeRow | null }>('SELECT call_routing_rules($1) AS rules', [callee])).rows[0]?.rules;
  if (!row) return null;
  return {
    extension: row.extension,
    dnd: row.do_not_disturb,
    forwardAlways: row.forward_always,
    forwardDefault: row.forward_default,
    inbound: row.inbound_routes,
    findMe: row.find_me,
    extensions: new Map(Object.entries(row.users ?? {})),
    groups: new Map(Object.entries(row.groups ?? {})),
    timeZone: row.find_me?.timeZone ?? null,
  };
}

/** The decision for a call to `callee`, with voicemail only while the voicemail phone answers for that box. */
const exists = (file: string) => access(file).then(() => true, () => false);

/**
 * The file with the callee's recorded name is there, or is written now from the database (the
 * runtime folder is per machine; the recording is the database's).
 */
async function namedAnnouncement(db: Queryable, callee: string, runtimeDir: string): Promise<boolean> {
  if (await exists(announceFiles({ runtimeDir }).named(callee))) return true;
  const wav = await recordedNameOfExtension(db, callee);
  if (!wav) return false;
  await writeNamedAnnouncement(runtimeDir, callee, wav);
  return true;
}

/**
 * Find-me's announcements only when they can be heard: the voicemail phone's announcer answers for
 * the callee, and the file Kamailio tells rtpengine to play is there (the recorded name: only once
 * one was saved). Otherwise the hunt rings as without them.
 */
async function withAnnouncements(db: Queryable, decision: Extract<Decision, { action: 'hunt' }>, callee: string, box: VoicemailBox | null | undefined, runtimeDir: string | undefined): Promise<Decision> {
  if (!decision.recordName && !decision.announceBetween) return decision;
  const files = runtimeDir ? announceFiles({ runtimeDir }) : null;
  const ready = files && box?.ready && (await box.openAnnouncer(callee));
  const recordName = Boolean(ready && decision.recordName && (await namedAnnouncement(db, callee, runtimeDir!)));
  const announceBetween = Boolean(ready && decision.announceBetween && (await exists(files.hold)));
  return { ...decision, recordName, announceBetween };
}

export async function routeCall(db: Queryable, callee: string, event: RouteEvent, box?: VoicemailBox | null, now = new Date(), runtimeDir?: string): Promise<Decision | null> {
  const rules = await calleeRules(db, callee);
  if (!rules) return null;
  const decision = decideRoute(rules, { event, now, ringSeconds: RING_TIME_MS / 1000 });
  if (decision.action === 'voicemail' || decision.action === 'greeting') {
    const answers = box?.ready && (await (decision.action === 'voicemail' ? box.open(decision.box) : box.openGreeting(decision.box)));
    // No voicemail phone: what would happen without the rule.
    if (!answers) return event === 'incoming' ? { action: 'ring', seconds: RING_TIME_MS / 1000 } : { action: 'none' };
  }
  if (decision.action === 'hunt') return withAnnouncements(db, decision, rules.extension, box, runtimeDir);
  return decision;
}

/**
 * What Kamailio reads for a call to `callee` (encodeDecision: `ring`, `dnd`, `forward:<number>`,
 * `voicemail:<mailbox>`, …), asked at a new call, and again with the failure's event when the
 * callee could not take it (or is on do-not-disturb). `voicemail` (the extension dialled with a
 * trailing *) answers `voicemail:<mailbox>` or `none`.
 */
export async function routingDecision(db: Queryable, callee: string, on?: RouteEvent | 'voicemail', box?: VoicemailBox | null, runtimeDir?: string): Promise<string> {
  if (on === 'voicemail') {
    const user = isExtension(callee) ? await db.query('SELECT 1 FROM users WHERE extension = $1 LIMIT 1', [callee]) : null;
    return user?.rows.length && box?.ready && (await box.open(callee)) ? `voicemail:${callee}` : 'none';
  }
  const event = on ?? 'incoming';
  const decision = await routeCall(db, callee, event, box, new Date(), runtimeDir);
  return decision ? encodeDecision(decision, event) : 'ring';
}
