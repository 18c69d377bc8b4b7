import { createHash } from 'node:crypto';
import type { Queryable } from '../db/types';
import type { BrandingType } from '../../src/wire/branding';

export interface StoredLogo {
  mime_type: string;
  bytes: Uint8Array;
}

/** Stores the organisation's logo; returns its digest. */
export async function saveLogo(db: Queryable, organizationId: number, type: BrandingType, logo: { mime: string; width: number; height: number; bytes: Buffer }): Promise<string> {
  const digest = createHash('sha256').update(logo.bytes).digest('hex').slice(0, 16);
  await db.query(
    `INSERT INTO organization_logos (organization_id, type, mime_type, width, height, bytes, digest) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (organization_id, type) DO UPDATE SET mime_type = $3, width = $4, height = $5, bytes = $6, digest = $7, updated_at = now()`,
    [organizationId, type, logo.mime, logo.width, logo.height, logo.bytes, digest],
  );
  return digest;
}

/** Whether there was one to delete. */
export async function deleteLogo(db: Queryable, organizationId: number, type: BrandingType): Promise<boolean> {
  const { rows } = await db.query(`DELETE FROM organization_logos WHERE organization_id = $1 AND type = $2 RETURNING 1`, [organizationId, type]);
  return rows.length > 0;
}

export async function logoOf(db: Queryable, organizationId: number, type: BrandingType): Promise<StoredLogo | null> {
  const { rows } = await db.query<StoredLogo>(`SELECT mime_type, bytes FROM organization_logos WHERE organization_id = $1 AND type = $2`, [organizationId, type]);
  return rows[0] ?? null;
}

