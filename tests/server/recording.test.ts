import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallRecordingSettings, nextRecordingAction, PlatformConfiguration } from '../../src/wire/recording';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

describe.each(backends)('call recording settings and control ($name)', (backend) => {
  let t: TestServer;
  let alice: string;
  beforeAll(async () => {
    t = await startTestServer(backend);
    alice = await t.login('alice');
  });
  afterAll(() => t?.close());

  it('an organisation records on demand and may view its own recordings until it says otherwise', async () => {
    const res = await t.app.inject({ url: '/v1/call-recording-settings', headers: bearer(alice) });
    expect(CallRecordingSettings.parse(res.json())).toEqual({ ecr_call_recording_status: 'on_demand', ecr_can_view_own_recordings: true });
    await t.db.query(`INSERT INTO call_recording_policies (organization_id, status, can_view_own) SELECT organization_id, 'off', false FROM users WHERE username = 'alice'`);
    const off = await t.app.inject({ url: '/v1/call-recording-settings', headers: bearer(alice) });
    expect(off.json()).toEqual({ ecr_call_recording_status: 'off', ecr_can_view_own_recordings: false });
  });

  it('refuses a call that is not in progress (or not yours) and a malformed request', async () => {
    const post = (payload: unknown) => t.app.inject({ method: 'POST', url: '/v1/calls/abc@host/recording', headers: bearer(alice), payload: payload as object });
    expect((await post({ action: 'start' })).statusCode).toBe(404);
    const bad = await post({ action: 'stop' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/recording request/);
  });

  it('the platform configuration names the recording DTMF sequences', async () => {
    const res = await t.app.inject({ url: '/v1/platform-configuration', headers: bearer(alice) });
    expect(PlatformConfiguration.parse(res.json())).toEqual({ ecr_on_demand_dtmf_sequence: '*81', ecr_pause_recording_dtmf_sequence: '*82' });
    expect((await t.app.inject({ url: '/v1/platform-configuration' })).statusCode).toBe(401);
  });

  it('the button cycles Start, Pause, Resume; nothing when recording is off', () => {
    expect(nextRecordingAction('none', 'on_demand')).toBe('start');
    expect(nextRecordingAction('recording', 'on')).toBe('pause');
    expect(nextRecordingAction('paused', 'on')).toBe('resume');
    expect(nextRecordingAction('none', 'off')).toBeNull();
  });
});
