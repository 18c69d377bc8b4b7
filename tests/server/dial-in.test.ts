import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import type { MeetingBridges } from '../../server/meetings/audio-bridge';
import { parseDialled, startDialIn } from '../../server/meetings/dial-in';
import type { PhoneFeedKeeper } from '../../server/meetings/phone-feed';
import { audioAnswer, readAudioOffer } from '../../server/meetings/dial-in-sdp';
import { dialInString } from '../../src/wire/services';

/** What rtpengine offers the dial-in for a browser caller (plain RTP towards a UDP phone). */
const OFFER = ['v=0', 'o=- 1 1 IN IP4 127.0.0.1', 's=-', 'c=IN IP4 127.0.0.1', 't=0 0', 'm=audio 30010 RTP/AVP 111 9 0 8 101', 'a=rtpmap:111 opus/48000/2', 'a=rtpmap:9 G722/8000', 'a=rtpmap:0 PCMU/8000', 'a=rtpmap:8 PCMA/8000', 'a=rtpmap:101 telephone-event/8000', 'a=sendrecv', ''].join('\r\n');

describe('dial-in digits and SDP', () => {
  it('reads the meeting ID and PIN of the number dialled, and nothing else', () => {
    expect(parseDialled(dialInString('314159336', '012345'))).toEqual({ accessCode: '314159336', pin: '012345' });
    expect(parseDialled('%2A64%2A314159336%2A012345')).toEqual({ accessCode: '314159336', pin: '012345' });
    for (const other of ['*64', '*64*314159336', '*64**012345', '*43*314159336*012345', '1001', '*64*31415*012345', undefined]) expect(parseDialled(other)).toBeNull();
  });

  it("takes the offer's first G.711 and answers with the bridge's address, that codec only", () => {
    const offer = readAudioOffer(OFFER);
    expect(offer).toEqual({ remote: { ip: '127.0.0.1', port: 30010 }, codec: 'pcmu', payloadType: 0 });
    expect(readAudioOffer(OFFER.replace('111 9 0 8 101', '111 9 8 0 101'))).toMatchObject({ codec: 'pcma', payloadType: 8 });
    expect(readAudioOffer(OFFER.replace('111 9 0 8 101', '111 9'))).toBeNull();
    const answer = audioAnswer({ ip: '127.0.0.1', port: 46910 }, 'pcmu', 0, 7);
    expect(answer).toContain('m=audio 46910 RTP/AVP 0\r\n');
    expect(answer).toContain('c=IN IP4 127.0.0.1\r\n');
    expect(readAudioOffer(answer)).toEqual({ remote: { ip: '127.0.0.1', port: 46910 }, codec: 'pcmu', payloadType: 0 });
  });
});

describe('the dial-in user agent', () => {
  it('does not start, and says so, when its SIP port is taken (the process goes on)', async () => {
    const holder = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => holder.bind(0, '127.0.0.1', resolve));
    const port = (holder.address() as AddressInfo).port;
    const error = vi.fn();
    const log = { error, warn: vi.fn(), info: vi.fn() } as unknown as FastifyBaseLogger;
    const dialIn = startDialIn({ db: {} as never, rooms: {} as never, bridges: {} as MeetingBridges, feeds: {} as PhoneFeedKeeper, port, log });
    try {
      await vi.waitFor(() => expect(error).toHaveBeenCalledWith(expect.objectContaining({ port }), 'dial-in not started: its SIP port is taken'));
    } finally {
      dialIn.close();
      holder.close();
    }
  });
});
