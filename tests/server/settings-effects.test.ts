import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autoRecordingParty } from '../../server/calls/recording-control';
import { hiddenPresenceList, HIDDEN_PRESENCE_LIST } from '../../server/chat/presence-sharing';
import { saveUcSettings } from '../../server/users/uc-settings-repository';
import { noticeText } from '../../server/voicemail/notify';
import { backends, startTestServer, type TestServer } from './helpers';

describe.each(backends)('what the UC settings do ($name)', (backend) => {
  let t: TestServer;
  let alice = 0;
  let bob = 0;
  beforeAll(async () => {
    t = await startTestServer(backend);
    [alice, bob] = [await t.userId('alice'), await t.userId('bob')];
  });
  afterAll(() => t?.close());
  const setPolicy = (status: string) =>
    t.db.query(
      `INSERT INTO call_recording_policies (organization_id, status) SELECT organization_id, $1 FROM users WHERE username = 'alice'
       ON CONFLICT (organization_id) DO UPDATE SET status = EXCLUDED.status`,
      [status],
    );

  it("auto_record_audio: a party's wish records the call on demand; the organisation's 'on' records anyway, its 'off' wins", async () => {
    await setPolicy('on_demand');
    expect(await autoRecordingParty(t.db, [alice, bob])).toBeNull();
    await saveUcSettings(t.db, bob, { auto_record_audio: true });
    expect(await autoRecordingParty(t.db, [alice, bob])).toBe(bob);
    await setPolicy('off');
    expect(await autoRecordingParty(t.db, [alice, bob])).toBeNull();
    await saveUcSettings(t.db, bob, { auto_record_audio: false });
    await setPolicy('on');
    expect(await autoRecordingParty(t.db, [alice, bob])).toBe(alice);
    await setPolicy('on_demand');
  });
});

describe('presence and voicemail notices', () => {
  it('the hidden-presence list lets the own devices through and drops presence to the rest of the server only', () => {
    const xml = hiddenPresenceList('alice@uc.local', 'uc.local');
    expect(xml).toBe(
      `<query xmlns='jabber:iq:privacy'><list name='${HIDDEN_PRESENCE_LIST}'>` +
        `<item type='jid' value='alice@uc.local' action='allow' order='1'/>` +
        `<item type='jid' value='uc.local' action='deny' order='2'><presence-out/></item></list></query>`,
    );
    expect(hiddenPresenceList("o'neil@uc.local", 'uc.local')).toContain(`value='o&apos;neil@uc.local'`);
  });

  it('the text and subject name the caller and the length', () => {
    const vm = { userId: 1, voicemailId: 2, notices: { sms_notification: true, email_notification: false }, receivedAt: new Date(), wav: Buffer.alloc(0) };
    expect(noticeText({ ...vm, callerNumber: '1001', callerName: 'Alice Nguyen', durationMs: 3400 })).toBe('New voicemail from Alice Nguyen (1001), 3 s.');
    expect(noticeText({ ...vm, callerNumber: '+12125550123', callerName: null, durationMs: 200 })).toBe('New voicemail from +12125550123, 1 s.');
  });
});
