/**
 * sipp (Debian's sip-tester) as the SIP load generator: the scenarios (REGISTER with the 401
 * challenge answered; a call with the 407 answered, G.711 RTP played through rtpengine for the hold
 * time, then BYE; the callee side answering and echoing the RTP), one run at a fixed rate, and its
 * counts read back from its statistics file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuPercent, parseProcStat, ticksPerSecond } from './procStat';

/** sipp's own G.711 A-law sample (about 6 s), sent by every caller for the hold time. */
export const PCAP = '/usr/share/sip-tester/g711a.pcap';

export interface SippCounts {
  created: number;
  successful: number;
  failed: number;
}

/** The last line of a `-trace_stat` file (';'-separated, named columns): the run's cumulative counts. */
export function parseSippStats(csv: string): SippCounts {
  const lines = csv.split('\n').map((l) => l.trim()).filter(Boolean);
  if (lines.length < 2) throw new Error('sipp statistics file holds no data line');
  const header = lines[0]!.split(';');
  const last = lines[lines.length - 1]!.split(';');
  const col = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`sipp statistics lack column ${name}`);
    return Number(last[i]);
  };
  return { created: col('TotalCallCreated'), successful: col('SuccessfulCall(C)'), failed: col('FailedCall(C)') };
}

const xml = (name: string, body: string) => `<?xml version="1.0" encoding="ISO-8859-1" ?>
<!DOCTYPE scenario SYSTEM "sipp.dtd">
<scenario name="${name}">
${body}
</scenario>
`;

/**
 * One registration per "call" of extension field0: REGISTER, the 401, REGISTER with the run's
 * ephemeral credentials (sipp's -au/-ap: this sipp cannot take them from the injection file), 200.
 * The contact is `contactPort` on this host (the callee sipp, for the calls).
 */
export function registerScenario(domain: string, contactPort: number | 'self'): string {
  const port = contactPort === 'self' ? '[local_port]' : String(contactPort);
  const register = (cseq: number, auth: string) => `  <send retrans="500">
    <![CDATA[

      REGISTER sip:${domain} SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      From: <sip:[field0]@${domain}>;tag=[pid]R[call_number]
      To: <sip:[field0]@${domain}>
      Call-ID: [call_id]
      CSeq: ${cseq} REGISTER
      Contact: <sip:[field0]@[local_ip]:${port};transport=udp>
      Max-Forwards: 70
      Expires: 300
${auth}      Content-Length: 0

    ]]>
  </send>
`;
  return xml(
    'uc load register',
    `${register(1, '')}  <recv response="401" auth="true"/>
${register(2, '      [authentication]\n')}  <recv response="200" rtd="true"/>`,
  );
}

/**
 * A call from field0 (the run's credentials) to field1: INVITE, 407, INVITE with the credentials,
 * answered; RTP (PCMA) played from the pcap for `holdMs`, then BYE.
 */
export function callScenario(domain: string, holdMs: number): string {
  const invite = (cseq: number, auth: string) => `  <send retrans="500">
    <![CDATA[

      INVITE sip:[field1]@${domain} SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      From: <sip:[field0]@${domain}>;tag=[pid]C[call_number]
      To: <sip:[field1]@${domain}>
      Call-ID: [call_id]
      CSeq: ${cseq} INVITE
      Contact: <sip:[field0]@[local_ip]:[local_port];transport=udp>
      Max-Forwards: 70
${auth}      Content-Type: application/sdp
      Content-Length: [len]

      v=0
      o=load 1 1 IN IP[local_ip_type] [local_ip]
      s=-
      c=IN IP[media_ip_type] [media_ip]
      t=0 0
      m=audio [media_port] RTP/AVP 8
      a=rtpmap:8 PCMA/8000
      a=sendrecv

    ]]>
  </send>
`;
  return xml(
    'uc load call',
    `${invite(1, '')}  <recv response="100" optional="true"/>
  <recv response="407" auth="true"/>
  <send>
    <![CDATA[

      ACK sip:[field1]@${domain} SIP/2.0
      [last_Via:]
      From: <sip:[field0]@${domain}>;tag=[pid]C[call_number]
      [last_To:]
      Call-ID: [call_id]
      CSeq: 1 ACK
      Max-Forwards: 70
      Content-Length: 0

    ]]>
  </send>
${invite(2, '      [authentication]\n')}  <recv response="100" optional="true"/>
  <recv response="180" optional="true"/>
  <recv response="183" optional="true"/>
  <recv response="200" rrs="true" rtd="true"/>
  <send>
    <![CDATA[

      ACK [next_url] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      [routes]
      From: <sip:[field0]@${domain}>;tag=[pid]C[call_number]
      [last_To:]
      Call-ID: [call_id]
      CSeq: 2 ACK
      Max-Forwards: 70
      Content-Length: 0

    ]]>
  </send>
  <nop><action><exec play_pcap_audio="${PCAP}"/></action></nop>
  <pause milliseconds="${holdMs}"/>
  <send retrans="500">
    <![CDATA[

      BYE [next_url] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      [routes]
      From: <sip:[field0]@${domain}>;tag=[pid]C[call_number]
      [last_To:]
      Call-ID: [call_id]
      CSeq: 3 BYE
      Max-Forwards: 70
      Content-Length: 0

    ]]>
  </send>
  <recv response="200" crlf="true"/>`,
  );
}

/** The callees' phone: answers every INVITE at once (PCMA towards its RTP echo), takes ACK and BYE. */
export function answerScenario(): string {
  const reply = (status: string, sdp: boolean) => `  <send${sdp ? ' retrans="500"' : ''}>
    <![CDATA[

      SIP/2.0 ${status}
      [last_Via:]
      [last_Record-Route:]
      [last_From:]
      [last_To:];tag=[pid]A[call_number]
      [last_Call-ID:]
      [last_CSeq:]
      Contact: <sip:[local_ip]:[local_port];transport=[transport]>
${sdp ? '      Content-Type: application/sdp\n      Content-Length: [len]\n\n      v=0\n      o=answer 1 1 IN IP[local_ip_type] [local_ip]\n      s=-\n      c=IN IP[media_ip_type] [media_ip]\n      t=0 0\n      m=audio [media_port] RTP/AVP 8\n      a=rtpmap:8 PCMA/8000\n      a=sendrecv\n' : '      Content-Length: 0\n'}
    ]]>
  </send>
`;
  return xml(
    'uc load answer',
    `  <recv request="INVITE" crlf="true"/>
${reply('180 Ringing', false)}${reply('200 OK', true)}  <recv request="ACK" crlf="true"/>
  <recv request="BYE"/>
  <send>
    <![CDATA[

      SIP/2.0 200 OK
      [last_Via:]
      [last_From:]
      [last_To:]
      [last_Call-ID:]
      [last_CSeq:]
      Content-Length: 0

    ]]>
  </send>
  <timewait milliseconds="500"/>`,
  );
}

export interface SippRun {
  dir: string;
  name: string;
  scenario: string;
  /** Kamailio's UDP address. */
  target: string;
  localPort: number;
  mediaPort: number;
  /** Lines of the injection file (each `field0;field1;…`). */
  injection: string[];
  /** The ephemeral credentials the 401/407 challenges are answered with. */
  auth: { username: string; password: string };
  rate: number;
  calls: number;
  /** A call still open this long after its start has failed. */
  timeoutS: number;
}

/**
 * Why calls failed, from sipp's error file: each unexpected reply by status line, each timeout.
 * Kept short: the first kinds are enough to say what ran out.
 */
export function summariseSippErrors(log: string): Record<string, number> {
  const out: Record<string, number> = {};
  // "Dead call … received" lines are replies to calls already over (retransmitted 200s to BYE): not failures.
  for (const m of log.matchAll(/Aborting call on unexpected message.*?received 'SIP\/2\.0 (\d{3}[^\r\n']*)|(receive timeout|max UDP retrans)/gi)) {
    const key = m[1] ? m[1].trim() : 'timeout';
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

export interface SippResult extends SippCounts {
  seconds: number;
  /** sipp's own CPU over the run, percent of one core: the generator's limit is one core. */
  sippCpu: number;
  errors: Record<string, number>;
}

/** One sipp run to the end: `calls` calls at `rate` per second; its counts, wall time and errors. */
export async function runSipp(o: SippRun): Promise<SippResult> {
  const scenarioFile = join(o.dir, `${o.name}.xml`);
  const injectionFile = join(o.dir, `${o.name}.csv`);
  const statFile = join(o.dir, `${o.name}-stat.csv`);
  writeFileSync(scenarioFile, o.scenario);
  writeFileSync(injectionFile, `SEQUENTIAL\n${o.injection.join('\n')}\n`);
  const t0 = performance.now();
  let ticks = 0;
  await new Promise<number | null>((resolve, reject) => {
    const child = spawn(
      'sipp',
      [o.target, '-sf', scenarioFile, '-inf', injectionFile, '-au', o.auth.username, '-ap', o.auth.password, '-i', '127.0.0.1', '-p', String(o.localPort), '-mp', String(o.mediaPort),
        '-r', String(o.rate), '-m', String(o.calls), '-l', '5000', '-recv_timeout', '5000', '-timeout', `${Math.ceil(o.calls / o.rate) + o.timeoutS + 10}s`,
        '-nostdin', '-trace_stat', '-stf', statFile, '-fd', '1', '-trace_err', '-error_file', join(o.dir, `${o.name}-errors.log`)],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let err = '';
    child.stderr!.on('data', (d: Buffer) => void (err = (err + d.toString()).slice(-2000)));
    // Its CPU is read while it runs: once it has exited, /proc has nothing left of it.
    const poll = setInterval(() => {
      try {
        ticks = parseProcStat(readFileSync(`/proc/${child.pid}/stat`, 'utf8')).cpuTicks;
      } catch {
        /* exited */
      }
    }, 250);
    child.on('error', reject);
    child.on('exit', () => clearInterval(poll));
    child.on('exit', (c) => (c === 0 || c === 1 ? resolve(c) : reject(new Error(`sipp ${o.name} exited with ${c}: ${err}`))));
  });
  const seconds = (performance.now() - t0) / 1000;
  const counts = parseSippStats(readFileSync(statFile, 'utf8'));
  const errorFile = join(o.dir, `${o.name}-errors.log`);
  const errors = counts.failed && existsSync(errorFile) ? summariseSippErrors(readFileSync(errorFile, 'utf8')) : {};
  return { ...counts, seconds, sippCpu: Math.round(cpuPercent({ cpuTicks: 0, at: 0 }, { cpuTicks: ticks, at: seconds * 1000 }, ticksPerSecond())), errors };
}

/** The callee sipp, answering until stopped by its PID. */
export function startAnswerer(dir: string, target: string, localPort: number, mediaPort: number): ChildProcess {
  const scenarioFile = join(dir, 'answer.xml');
  writeFileSync(scenarioFile, answerScenario());
  return spawn('sipp', [target, '-sf', scenarioFile, '-i', '127.0.0.1', '-p', String(localPort), '-mp', String(mediaPort), '-rtp_echo', '-l', '5000', '-nostdin'], {
    stdio: 'ignore',
  });
}
