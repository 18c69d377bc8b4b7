import type { ServicesConfig } from './layout';
import { NgClient, type NgResponse } from './ng';
import { rtpengineNgPorts } from './rtpengine';

/**
 * Call recording, driven by the API server through rtpengine's control protocol ("ng"). rtpengine
 * runs with `--recording-method=pcap`: every recorded call gets
 * `<runtime>/services/rtpengine/data/recordings/pcaps/<call-id>-<hex>.pcap` (+ a metadata file)
 * holding the call's decrypted RTP.
 *
 * rtpengine 10.5 has no `pause recording` command. Pausing is therefore `stop recording` (the
 * segment so far is closed) and resuming is `start recording` again, which opens a NEW segment
 * file for the same call: a paused call's recording is the ordered list of its segments, and the
 * paused stretch is simply absent (never recorded, so never needs cutting out).
 */

export class RecordingError extends Error {
  constructor(
    readonly command: string,
    readonly callId: string,
    readonly reason: string,
  ) {
    super(`rtpengine refused "${command}" for call ${callId}: ${reason}`);
    this.name = 'RecordingError';
  }
}

export interface RecordingOptions {
  /** How long to wait for rtpengine's answer. */
  timeoutMs?: number;
}

async function askOne(port: number, command: string, callId: string, timeoutMs: number): Promise<NgResponse> {
  const ng = new NgClient(port);
  try {
    return await ng.command(command, { 'call-id': callId }, timeoutMs);
  } finally {
    ng.close();
  }
}

/**
 * To the rtpengine that anchors the call. In a cluster the call is on one of two, and either may be
 * down: both are asked at once, the one that knows the call answers ok (the other: unknown call).
 */
async function recordingCommand(cfg: ServicesConfig, command: 'start recording' | 'stop recording', callId: string, opts: RecordingOptions): Promise<NgResponse> {
  if (!callId.trim()) throw new Error('a SIP Call-ID is required');
  const timeoutMs = opts.timeoutMs ?? 2000;
  const ports = rtpengineNgPorts(cfg);
  if (ports.length === 1) {
    const res = await askOne(ports[0]!, command, callId, timeoutMs);
    if (res.result !== 'ok') throw new RecordingError(command, callId, res['error-reason'] ?? res.result);
    return res;
  }
  const answers = await Promise.all(ports.map((p) => askOne(p, command, callId, timeoutMs).catch((err: Error) => err)));
  const ok = answers.find((a): a is NgResponse => !(a instanceof Error) && a.result === 'ok');
  if (ok) return ok;
  const refusal = answers.find((a): a is NgResponse => !(a instanceof Error));
  throw new RecordingError(command, callId, refusal ? (refusal['error-reason'] ?? refusal.result) : (answers[0] as Error).message);
}

/** Starts recording the media of the call with this SIP Call-ID (rtpengine must be anchoring it). */
export function startRecording(cfg: ServicesConfig, callId: string, opts: RecordingOptions = {}): Promise<NgResponse> {
  return recordingCommand(cfg, 'start recording', callId, opts);
}

/** Stops recording the call; its current segment file is closed. */
export function stopRecording(cfg: ServicesConfig, callId: string, opts: RecordingOptions = {}): Promise<NgResponse> {
  return recordingCommand(cfg, 'stop recording', callId, opts);
}

/** Pause = stop: rtpengine 10.5 has no `pause recording` (see above). */
export function pauseRecording(cfg: ServicesConfig, callId: string, opts: RecordingOptions = {}): Promise<NgResponse> {
  return stopRecording(cfg, callId, opts);
}

/** Resume = start again: the recording continues in a new segment file of the same call. */
export function resumeRecording(cfg: ServicesConfig, callId: string, opts: RecordingOptions = {}): Promise<NgResponse> {
  return startRecording(cfg, callId, opts);
}
