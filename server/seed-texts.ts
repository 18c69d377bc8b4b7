import type { Queryable } from './db/types';

/** The demo's messaging numbers (E.164); carol's has no MMS, to show that rule. */
export const DEMO_DIDS: ReadonlyArray<{ username: string; number: string; label: string; mms: boolean }> = [
  { username: 'olivia', number: '+14155550100', label: 'Main line', mms: true },
  { username: 'alice', number: '+14155550101', label: 'Business texts', mms: true },
  { username: 'bob', number: '+14155550102', label: 'Business texts', mms: true },
  { username: 'carol', number: '+14155550103', label: 'Business texts', mms: false },
];
/** A number the demo organisation's users may not text. */
export const DEMO_BANNED = ['+14155550666'];

/** Messaging numbers and the banned list of the demo organisation. Safe to run again. */
export async function seedDemoTexts(tx: Queryable): Promise<void> {
  for (const d of DEMO_DIDS) {
    await tx.query(
      `INSERT INTO messaging_dids (organization_id, user_id, number, label, mms_enabled)
       SELECT organization_id, id, $2, $3, $4 FROM users WHERE lower(username) = $1
       ON CONFLICT (user_id, number) DO NOTHING`,
      [d.username, d.number, d.label, d.mms],
    );
  }
  for (const n of DEMO_BANNED) {
    await tx.query(
      `INSERT INTO text_banned_numbers (organization_id, number) SELECT organization_id, $1 FROM users WHERE lower(username) = 'olivia' ON CONFLICT DO NOTHING`,
      [n],
    );
  }
}
