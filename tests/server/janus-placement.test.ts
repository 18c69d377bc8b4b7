import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../server/csp';
import { janus, janus2 } from '../../server/services/janus';
import { janusInstances, placeMeeting } from '../../server/services/janus-instances';
import { readServicesConfig, serviceDirs } from '../../server/services/layout';
import { servicePorts } from '../../server/services/ports';
import { readUccSettings } from '../../server/settings';

const ids = Array.from({ length: 2000 }, (_, i) => i + 1);

describe('placing meetings on Janus instances', () => {
  it('is a function of the meeting id and the list only: the same answer every time, in any process', () => {
    const names = ['janus', 'janus2'];
    const first = ids.map((id) => placeMeeting(id, names));
    expect(ids.map((id) => placeMeeting(id, [...names]))).toEqual(first);
    // Pinned: a change of the rule would move live meetings between instances on the next deploy.
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((id) => placeMeeting(id, names))).toMatchInlineSnapshot(`
      [
        0,
        0,
        1,
        1,
        1,
        0,
        1,
        0,
      ]
    `);
  });

  it('spreads meetings about evenly over two instances; one instance takes them all', () => {
    const onSecond = ids.filter((id) => placeMeeting(id, ['janus', 'janus2']) === 1).length;
    expect(onSecond / ids.length).toBeGreaterThan(0.45);
    expect(onSecond / ids.length).toBeLessThan(0.55);
    expect(new Set(ids.map((id) => placeMeeting(id, ['janus'])))).toEqual(new Set([0]));
    expect(() => placeMeeting(1, [])).toThrow();
  });

  it('a third instance takes meetings only for itself: none moves between the first two', () => {
    const two = ids.map((id) => placeMeeting(id, ['janus', 'janus2']));
    const three = ids.map((id) => placeMeeting(id, ['janus', 'janus2', 'janus3']));
    const moved = ids.filter((_, i) => two[i] !== three[i]);
    expect(moved.every((id) => three[ids.indexOf(id)] === 2)).toBe(true);
    expect(moved.length / ids.length).toBeGreaterThan(0.25);
    expect(moved.length / ids.length).toBeLessThan(0.42);
  });
});

describe('Janus instances of a configuration', () => {
  const ports = servicePorts(44000);

  it('one Janus without a cluster, with the whole media range, as before', () => {
    expect(janusInstances({ ports, cluster: false })).toEqual([{ name: 'janus', ws: 44100, adminWs: 44101, rtpMin: 44500, rtpMax: 44699, bridgeRtpMin: 44900, bridgeRtpMax: 44999 }]);
  });

  it('two in a cluster, on their own ports, splitting the media range without overlap', () => {
    expect(janusInstances({ ports, cluster: true })).toEqual([
      { name: 'janus', ws: 44100, adminWs: 44101, rtpMin: 44500, rtpMax: 44599, bridgeRtpMin: 44900, bridgeRtpMax: 44949 },
      { name: 'janus2', ws: 44110, adminWs: 44111, rtpMin: 44600, rtpMax: 44699, bridgeRtpMin: 44950, bridgeRtpMax: 44999 },
    ]);
  });

  it('the browser is given every instance’s address and the CSP lets it open each', () => {
    expect(readUccSettings({ UC_PORT_BASE: '44000' }).janusWsUrls).toEqual(['ws://127.0.0.1:44100']);
    const cluster = readUccSettings({ UC_PORT_BASE: '44000', UC_CLUSTER: '1' });
    expect(cluster.janusWsUrls).toEqual(['ws://127.0.0.1:44100', 'ws://127.0.0.1:44110']);
    expect(readUccSettings({ UC_PORT_BASE: '44000', UC_CLUSTER: '1', UC_JANUS_WS_URL: 'wss://j1.example/janus, wss://j2.example/janus' }).janusWsUrls).toEqual(['wss://j1.example/janus', 'wss://j2.example/janus']);
    const connect = contentSecurityPolicy(cluster, { uploadUrl: 'http://127.0.0.1:44280/upload', ports: servicePorts(44000), cluster: true })
      .split('; ')
      .find((d) => d.startsWith('connect-src '))!
      .split(' ');
    expect(connect).toEqual(expect.arrayContaining(['ws://127.0.0.1:44100', 'ws://127.0.0.1:44110']));
  });
});

describe('the Janus configurations a cluster writes', () => {
  it('each instance its own folder, loopback ports and half of the media range; the same secrets', async () => {
    const runtimeDir = await mkdtemp(path.join(tmpdir(), 'uc-janus-'));
    try {
      const cfg = { ...readServicesConfig({ UC_PORT_BASE: '44000', UC_CLUSTER: '1' }, runtimeDir) };
      const written = await Promise.all(
        [janus, janus2].map(async (def) => {
          const spec = await def.prepare(cfg);
          const conf = serviceDirs(runtimeDir, def.name).conf;
          const read = (f: string) => readFile(path.join(conf, f), 'utf8');
          return { spec, main: await read('janus.jcfg'), ws: await read('janus.transport.websockets.jcfg'), room: await read('janus.plugin.videoroom.jcfg') };
        }),
      );
      expect(written[0]!.main).toContain('rtp_port_range = "44500-44599"');
      expect(written[1]!.main).toContain('rtp_port_range = "44600-44699"');
      expect(written.map((w) => w.spec.ports)).toEqual([
        [{ port: 44100, proto: 'tcp' }, { port: 44101, proto: 'tcp' }],
        [{ port: 44110, proto: 'tcp' }, { port: 44111, proto: 'tcp' }],
      ]);
      for (const w of written) expect(w.ws).toMatch(/ws_ip = "127\.0\.0\.1"[^]*admin_ws_ip = "127\.0\.0\.1"/);
      expect(written[1]!.spec.pidFile).toBe(path.join(runtimeDir, 'services', 'janus2', 'run', 'janus2.pid'));
      expect(written[1]!.spec.args).toContain(serviceDirs(runtimeDir, 'janus2').conf);
      // The one API creates rooms on both: the same admin_key and admin secret.
      expect(written[1]!.room).toBe(written[0]!.room);
      expect(written[1]!.main.match(/admin_secret = .*/)![0]).toBe(written[0]!.main.match(/admin_secret = .*/)![0]);
      // Without a cluster node 1 keeps the whole range.
      await janus.prepare({ ...cfg, cluster: false });
      expect(await readFile(path.join(serviceDirs(runtimeDir, 'janus').conf, 'janus.jcfg'), 'utf8')).toContain('rtp_port_range = "44500-44699"');
    } finally {
      await rm(runtimeDir, { recursive: true, force: true });
    }
  });
});
