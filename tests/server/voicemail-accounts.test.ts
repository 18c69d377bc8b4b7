/**
 * How Kamailio tells the voicemail phone what a call is for (the request-URI's user), and the
 * greeting-only file a repeat_greeting call hears: unit tests of the parts the services tests
 * (tests/services/find-me.test.ts) run end to end.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pcm16Wav, readWav } from '../../server/media/wav';
import { renderKamailioCfg } from '../../server/services/kamailio';
import { readServicesConfig } from '../../server/services/layout';
import { GREETING_RATE, makeGreeting, makeGreetingOnly } from '../../server/services/voicemail';
import { greetingOnlyUser, voicemailAccount } from '../../server/services/voicemail-accounts';

describe('voicemail phone accounts', () => {
  it('a mailbox takes a message; greeting-<mailbox> only plays its greeting', () => {
    expect(voicemailAccount('1002')).toEqual({ mailbox: '1002', greetingOnly: false });
    expect(voicemailAccount(greetingOnlyUser('1002'))).toEqual({ mailbox: '1002', greetingOnly: true });
    expect(greetingOnlyUser('1002')).toBe('greeting-1002');
  });

  it('anything else is no mailbox (the probe account, a name, a long number, nothing)', () => {
    for (const user of ['voicemail', 'greeting-', 'greeting-alice', '123456', 'x1002', '1002-greeting', '', null]) expect(voicemailAccount(user)).toBeNull();
  });

  it('Kamailio addresses the greeting-only account with the same prefix', async () => {
    const template = await readFile(path.join(import.meta.dirname, '../../server/services/kamailio.cfg.tmpl'), 'utf8');
    const cfg = readServicesConfig({ UC_PORT_BASE: '35000' }, '/tmp/uc-render-test');
    const text = renderKamailioCfg(template, cfg, { secret: 's', internalSecret: 'i', runDir: '/tmp/uc-render-test' });
    expect(text).toContain(`$ru = "sip:${greetingOnlyUser('')}" + $var(box) + "@${cfg.domain}";`);
    expect(text).not.toMatch(/\{\{[A-Z_]+\}\}/);
  });
});

describe('the greeting alone', () => {
  // One second of a 440 Hz tone at espeak-ng's rate, standing in for its speech.
  const speech = pcm16Wav(Float32Array.from({ length: 22_050 }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / 22_050)), 22_050);

  it('is the spoken part at the phone rate and half a second of silence: no tone, no room for a message', async () => {
    const only = readWav(makeGreetingOnly(speech));
    expect([only.sampleRate, only.channels, only.bitsPerSample]).toEqual([GREETING_RATE, 1, 16]);
    expect(only.dataBytes / 2 / GREETING_RATE).toBeCloseTo(1.5, 1);
    const full = await makeGreeting(speech);
    // The message greeting goes on for the longest message; the greeting alone ends.
    expect(readWav(full.wav).dataBytes).toBeGreaterThan(50 * only.dataBytes);
  });
});
