import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/types';

export interface OutboundText {
  organizationId: number;
  from: string;
  to: readonly string[];
  body: string;
  media: ReadonlyArray<{ filename: string; content_type: string; bytes: number }>;
}

/**
 * What a texting provider offers us: an outbound API. (Inbound arrives at our webhook,
 * `POST /v1/p1/messaging-webhook/{organisation}`, which any provider or a test can call.)
 */
export interface CarrierAdapter {
  readonly name: string;
  /** Hands the text to the provider; resolves with the provider's id of it. */
  send(db: Queryable, text: OutboundText): Promise<{ carrierId: string }>;
}

/**
 * The default carrier: keeps what it "sends" in the database (`loopback_carrier_messages`), where
 * its own API (`GET /carrier/loopback/v1/messages`) shows it. Numbers it serves itself (messaging
 * numbers of this deployment) get the text as an inbound one, as a real carrier would deliver it.
 */
export const loopbackCarrier: CarrierAdapter = {
  name: 'loopback',
  async send(db, text) {
    const carrierId = `lb-${randomUUID()}`;
    await db.query(
      `INSERT INTO loopback_carrier_messages (organization_id, carrier_id, from_number, to_numbers, body, media) VALUES ($1, $2, $3, $4, $5, $6)`,
      [text.organizationId, carrierId, text.from, text.to, text.body, JSON.stringify(text.media)],
    );
    return { carrierId };
  },
};
