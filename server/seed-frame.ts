import type { Queryable } from './db/types';

/** The one demo account that still has the `design-changes` announcement to confirm (README). */
export const ANNOUNCEMENT_DEMO_USER = 'camille.dubois';

/**
 * The frame's demo data: the account owner's contact-center links (a contact center with admin and
 * agent pages, an IVR with its admin page), and the `design-changes` announcement already confirmed
 * by every account but one, so that signing in as anyone else goes straight to work.
 */
export async function seedDemoFrame(tx: Queryable): Promise<void> {
  await tx.query(
    `INSERT INTO contact_center_links (user_id, type, admin_url, agent_url)
     SELECT u.id, l.type, l.admin_url, l.agent_url
       FROM (VALUES ('cc', 'https://cc.acme-uc.example/admin', 'https://cc.acme-uc.example/agent'),
                    ('ivr', 'https://ivr.acme-uc.example/admin', NULL))
            AS l (type, admin_url, agent_url)
       JOIN users u ON u.username = 'olivia'
     ON CONFLICT DO NOTHING`,
  );
  await tx.query(
    `INSERT INTO announcement_confirmations (user_id, announcement_id)
     SELECT id, 'design-changes' FROM users WHERE username <> $1
     ON CONFLICT DO NOTHING`,
    [ANNOUNCEMENT_DEMO_USER],
  );
  // New accounts are created with it confirmed (server/users/create.ts); hers stays to confirm.
  await tx.query(`DELETE FROM announcement_confirmations WHERE announcement_id = 'design-changes' AND user_id IN (SELECT id FROM users WHERE username = $1)`, [ANNOUNCEMENT_DEMO_USER]);
}
