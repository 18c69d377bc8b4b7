import type { ContactCenterLink } from '../../src/wire/frame';
import type { Queryable } from '../db/types';

/** The user's contact-center links: the contact center first, then the IVR. */
export async function contactCenterLinks(db: Queryable, userId: number): Promise<ContactCenterLink[]> {
  const { rows } = await db.query<ContactCenterLink>('SELECT type, admin_url, agent_url FROM contact_center_links WHERE user_id = $1 ORDER BY type', [userId]);
  return rows.map((r) => ({ type: r.type, admin_url: r.admin_url, agent_url: r.agent_url }));
}

export async function confirmedAnnouncements(db: Queryable, userId: number): Promise<string[]> {
  const { rows } = await db.query<{ announcement_id: string }>('SELECT announcement_id FROM announcement_confirmations WHERE user_id = $1', [userId]);
  return rows.map((r) => r.announcement_id);
}

/** Confirming again keeps the first confirmation's time. */
export async function confirmAnnouncement(db: Queryable, userId: number, announcementId: string): Promise<void> {
  await db.query('INSERT INTO announcement_confirmations (user_id, announcement_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [userId, announcementId]);
}
