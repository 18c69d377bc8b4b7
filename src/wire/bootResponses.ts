/*
 * The responses a page checks before its first screen can paint, checked without zod (see ./check).
 * Each parser returns the same type as the zod schema of the same name, and bootResponses.test.ts
 * holds them to accepting and rejecting what that schema does.
 */
import { array, bool, exhaustiveRecord, int, intIn, nullable, object, oneOf, optional, parser, record, str, strMax, type Parser } from './check';
import type { UccConfig as UccConfigType } from './config';
import { FEATURE_FLAGS } from './featureFlags';
import type { HistoryPageWire as HistoryPageWireType } from './history';
import type { HotkeyOverrides as HotkeyOverridesType } from './preferences';
import type { Profile as ProfileType } from './profile';

// In a module of its own: the page's entry checks a token before it knows whether to load the app.
export { AccessTokenResponse } from './tokenResponse';

export const UccConfig: Parser<UccConfigType> = parser(
  object({
    client_id: str,
    branding: object({ product_name: str, logo_url: nullable(str), accent_color: str }),
    features: exhaustiveRecord(FEATURE_FLAGS, bool),
    sip: object({
      configured: bool,
      ws_url: str,
      ws_urls: optional(array(str)),
      domain: str,
      register_expires: int,
      no_answer_timeout: int,
      stun_port: int,
      restart_after_online_ms: int,
    }),
    messaging: object({
      enabled: bool,
      ws_url: str,
      domain: str,
      muc_domain: str,
      ping_interval_ms: int,
      ping_timeout_ms: int,
      history_page_size: int,
    }),
    mailbox_number: nullable(str),
    email_configured: bool,
    help_url: str,
    contact_center: array(object({ type: oneOf('cc', 'ivr'), admin_url: str, agent_url: nullable(str) })),
    client_build: nullable(str),
  }),
);

export const Profile: Parser<ProfileType> = parser(
  object({
    user_id: int,
    username: str,
    first_name: str,
    last_name: str,
    alias: nullable(str),
    avatar_id: nullable(int),
    avatar_href: nullable(str),
    email: str,
    c2d_peer_type: oneOf(1, 2, 3),
    company: str,
    organization_id: int,
    role_id: intIn(1, 4),
    extension: nullable(str),
    is_reseller_level: bool,
    phone_numbers: array(
      object({
        source: oneOf('personal', 'extension'),
        source_id: nullable(int),
        extension: nullable(str),
        number: nullable(str),
        is_primary: bool,
      }),
    ),
  }),
);

export const HotkeyOverrides: Parser<HotkeyOverridesType> = parser(record(strMax(200), nullable(strMax(64))));

export const HistoryPageWire: Parser<HistoryPageWireType> = parser(
  object({
    items: array(
      object({
        id: int,
        call_time: str,
        direction: oneOf('inbound', 'outbound'),
        disposition: oneOf('ANSWERED', 'UNANSWERED'),
        source_phone: str,
        dest_phone: str,
        duration: intIn(0, Number.MAX_SAFE_INTEGER),
        is_primary: bool,
        caller_id: nullable(str),
        cnam: nullable(str),
      }),
    ),
    total: int,
    offset: int,
    limit: int,
  }),
);
