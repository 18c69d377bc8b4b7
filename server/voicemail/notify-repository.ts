import type { Queryable } from '../db/types';

export interface NoticeRecipient {
  organizationId: number;
  username: string;
  email: string;
  name: string;
  /** The user's mobile number (primary first), as typed in the profile. */
  mobile: string | null;
  /** The number the carrier sends the text from: the user's own messaging number, else the organisation's. */
  senderNumber: string | null;
}

export async function noticeRecipient(db: Queryable, userId: number): Promise<NoticeRecipient | null> {
  const { rows } = await db.query<{ organization_id: number; username: string; email: string; name: string; mobile: string | null; sender: string | null }>(
    `SELECT u.organization_id, u.username, u.email, trim(u.first_name || ' ' || u.last_name) AS name,
            (SELECT p.number FROM user_phone_numbers p WHERE p.user_id = u.id AND p.type = 'mobile' AND p.number IS NOT NULL
              ORDER BY p.is_primary DESC, p.position, p.id LIMIT 1) AS mobile,
            (SELECT d.number FROM messaging_dids d WHERE d.organization_id = u.organization_id
              ORDER BY (d.user_id = u.id) DESC, d.id LIMIT 1) AS sender
       FROM users u WHERE u.id = $1`,
    [userId],
  );
  const r = rows[0];
  return r ? { organizationId: r.organization_id, username: r.username, email: r.email, name: r.name, mobile: r.mobile, senderNumber: r.sender } : null;
}
