import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import * as auth from './auth';
import * as boot from './bootResponses';
import type { Parser } from './check';
import * as config from './config';
import * as history from './history';
import * as preferences from './preferences';
import * as profile from './profile';

/** Type-level: each boot parser yields exactly the zod schema's output type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Out<P> = P extends Parser<infer T> ? T : never;
const sameTypes: [
  Equal<Out<typeof boot.AccessTokenResponse>, z.infer<typeof auth.AccessTokenResponse>>,
  Equal<Out<typeof boot.UccConfig>, z.infer<typeof config.UccConfig>>,
  Equal<Out<typeof boot.Profile>, z.infer<typeof profile.Profile>>,
  Equal<Out<typeof boot.HotkeyOverrides>, z.infer<typeof preferences.HotkeyOverrides>>,
  Equal<Out<typeof boot.HistoryPageWire>, z.infer<typeof history.HistoryPageWire>>,
] = [true, true, true, true, true];

const flags = Object.fromEntries(config.FEATURE_FLAGS.map((f, i) => [f, i % 2 === 0]));
const samples = {
  AccessTokenResponse: { access_token: 'a.b.c', token_type: 'Bearer', expires_in: 900, user_id: 7 },
  UccConfig: {
    client_id: 'uc',
    branding: { product_name: 'UC', logo_url: null, accent_color: '#0a5' },
    features: flags,
    sip: {
      configured: true,
      ws_url: 'ws://127.0.0.1:15060/',
      ws_urls: ['ws://127.0.0.1:15060/', 'ws://127.0.0.2:15240/'],
      domain: 'uc.local',
      register_expires: 300,
      no_answer_timeout: 25,
      stun_port: 3478,
      restart_after_online_ms: 2000,
    },
    messaging: {
      enabled: false,
      ws_url: 'ws://127.0.0.1:15280/ws',
      domain: 'uc.local',
      muc_domain: 'conference.uc.local',
      ping_interval_ms: 30000,
      ping_timeout_ms: 25000,
      history_page_size: 25,
    },
    mailbox_number: '1001',
    email_configured: false,
    help_url: 'https://help.example',
    contact_center: [{ type: 'cc', admin_url: 'https://cc.example/admin', agent_url: 'https://cc.example/agent' }],
    client_build: 'index-Ab12.js',
  },
  Profile: {
    user_id: 2,
    username: 'alice',
    first_name: 'Alice',
    last_name: 'Archer',
    alias: null,
    avatar_id: 3,
    avatar_href: null,
    email: 'alice@example.com',
    c2d_peer_type: 2,
    company: 'Acme',
    organization_id: 1,
    role_id: 3,
    extension: '1001',
    is_reseller_level: false,
    phone_numbers: [
      { source: 'extension', source_id: null, extension: '1001', number: null, is_primary: true },
      { source: 'personal', source_id: 4, extension: null, number: '+14155550101', is_primary: false },
    ],
  },
  HotkeyOverrides: { 'telephony.call': 'Control+Shift+C', 'history.go': null },
  HistoryPageWire: {
    items: [
      {
        id: 1,
        call_time: '2026-11-24T09:00:00Z',
        direction: 'inbound',
        disposition: 'UNANSWERED',
        source_phone: '1002',
        dest_phone: '1001',
        duration: 0,
        is_primary: true,
        caller_id: 'Bob',
        cnam: null,
      },
    ],
    total: 1,
    offset: 0,
    limit: 50,
  },
} as const;
const zodSchemas: Record<keyof typeof samples, { safeParse(v: unknown): { success: boolean; data?: unknown } }> = {
  AccessTokenResponse: auth.AccessTokenResponse,
  UccConfig: config.UccConfig,
  Profile: profile.Profile,
  HotkeyOverrides: preferences.HotkeyOverrides,
  HistoryPageWire: history.HistoryPageWire,
};

/** Every variant of a sample with one value replaced, one key dropped or one key added, at any depth. */
function* variants(value: unknown): Generator<unknown> {
  const odd: unknown[] = [null, undefined, '', 'x'.repeat(201), 0, -1, 5, 1.5, 2 ** 60, true, [], {}, 'Bearer', 'inbound', 'extension'];
  for (const o of odd) yield o;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) for (const v of variants(value[i])) yield value.map((x, j) => (j === i ? v : x));
    yield [];
  } else if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const k of Object.keys(obj)) {
      for (const v of variants(obj[k])) yield { ...obj, [k]: v };
      const { [k]: _dropped, ...rest } = obj;
      yield rest;
    }
    yield { ...obj, extra: true };
  }
}

describe('boot response parsers', () => {
  it('have the zod schemas’ types', () => {
    expect(sameTypes.every(Boolean)).toBe(true);
  });

  for (const name of Object.keys(samples) as (keyof typeof samples)[]) {
    it(`${name}: accept, reject and return what the zod schema does`, () => {
      const ours = boot[name] as Parser<unknown>;
      const theirs = zodSchemas[name];
      let checked = 0;
      for (const input of [samples[name], ...variants(samples[name])]) {
        const expected = theirs.safeParse(input);
        const got = ours.safeParse(input);
        expect({ input, success: got.success }).toEqual({ input, success: expected.success });
        if (expected.success && got.success) expect(got.data).toEqual(expected.data);
        checked++;
      }
      expect(checked).toBeGreaterThan(20);
    });
  }

  it('names where a response went wrong', () => {
    expect(() => boot.Profile.parse({ ...samples.Profile, phone_numbers: [{ ...samples.Profile.phone_numbers[0], source: 'x' }] })).toThrow(
      /phone_numbers\[0\]\.source/,
    );
    expect(() => boot.AccessTokenResponse.parse('nope')).toThrow(/expected object/);
  });
});
