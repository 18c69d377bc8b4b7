import type { Queryable } from '../db/types';
import type { ServicesConfig } from '../services/layout';
import { startRecording, stopRecording } from '../services/recording';
import { ucSettingsOf } from '../users/uc-settings-repository';
import type { RecordingAction, RecordingControlResponse, RecordingMode, RecordingState } from '../../src/wire/recording';

export interface RecordingPolicy {
  mode: RecordingMode;
  canViewOwn: boolean;
}

/** The organisation's policy; an organisation that never set one records on demand. */
export async function recordingPolicy(db: Queryable, organizationId: number): Promise<RecordingPolicy> {
  const { rows } = await db.query<{ status: RecordingMode; can_view_own: boolean }>(
    'SELECT status, can_view_own FROM call_recording_policies WHERE organization_id = $1',
    [organizationId],
  );
  return { mode: rows[0]?.status ?? 'on_demand', canViewOwn: rows[0]?.can_view_own ?? true };
}

/** The strictest policy among the users on a call: 'off' anywhere wins, then 'on', then on demand. */
export async function callPolicy(db: Queryable, userIds: readonly number[]): Promise<RecordingMode> {
  const { rows } = await db.query<{ status: RecordingMode | null }>(
    `SELECT p.status FROM users u LEFT JOIN call_recording_policies p ON p.organization_id = u.organization_id WHERE u.id = ANY($1::int[])`,
    [userIds],
  );
  const modes = rows.map((r) => r.status ?? 'on_demand');
  if (modes.includes('off')) return 'off';
  if (modes.includes('on')) return 'on';
  return 'on_demand';
}

export class RecordingControlError extends Error {
  constructor(
    readonly status: 403 | 404 | 409 | 502,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const TRANSITIONS: Record<RecordingAction, { from: RecordingState; to: RecordingState; rtpengine: 'start' | 'stop' }> = {
  start: { from: 'none', to: 'recording', rtpengine: 'start' },
  pause: { from: 'recording', to: 'paused', rtpengine: 'stop' },
  resume: { from: 'paused', to: 'recording', rtpengine: 'start' },
};

interface LiveRow {
  recording: RecordingState;
  recording_segments: number;
  caller_user_id: number | null;
  callee_user_id: number | null;
}

/**
 * One step of the dock's recording button for a call in progress that `userId` is a party of.
 * The state moves first, atomically (`WHERE recording = from`), so two clicks or two devices cannot
 * both start it; if rtpengine then refuses, the state moves back.
 */
export async function controlRecording(
  db: Queryable,
  cfg: ServicesConfig,
  userId: number,
  callId: string,
  action: RecordingAction,
): Promise<RecordingControlResponse> {
  const { rows } = await db.query<LiveRow>(
    'SELECT recording, recording_segments, caller_user_id, callee_user_id FROM live_calls WHERE sip_call_id = $1 AND $2 IN (caller_user_id, callee_user_id)',
    [callId, userId],
  );
  const live = rows[0];
  if (!live) throw new RecordingControlError(404, 'call_not_found', 'This call is not in progress');
  const parties = [live.caller_user_id, live.callee_user_id].filter((id): id is number => id !== null);
  const mode = await callPolicy(db, parties);
  if (mode === 'off') throw new RecordingControlError(403, 'recording_off', 'Call recording is turned off for your organisation');
  const step = TRANSITIONS[action];
  const moved = await db.query<{ recording_segments: number }>(
    `UPDATE live_calls SET recording = $3, recording_segments = recording_segments + $4
      WHERE sip_call_id = $1 AND recording = $2 RETURNING recording_segments`,
    [callId, step.from, step.to, step.rtpengine === 'start' ? 1 : 0],
  );
  if (!moved.rows[0]) {
    const now = await db.query<{ recording: RecordingState }>('SELECT recording FROM live_calls WHERE sip_call_id = $1', [callId]);
    throw new RecordingControlError(409, 'recording_state', `Recording is ${now.rows[0]?.recording ?? 'not available'}; cannot ${action}`);
  }
  try {
    await (step.rtpengine === 'start' ? startRecording(cfg, callId) : stopRecording(cfg, callId));
  } catch {
    await db.query(
      'UPDATE live_calls SET recording = $2, recording_segments = recording_segments - $3 WHERE sip_call_id = $1',
      [callId, step.from, step.rtpengine === 'start' ? 1 : 0],
    );
    throw new RecordingControlError(502, 'recording_failed', 'The media server could not change the recording');
  }
  return { state: step.to, mode, segments: moved.rows[0].recording_segments };
}

/** A call through Kamailio began: remember its parties, and record it at once where the policy is 'on'. */
export async function callStarted(db: Queryable, cfg: ServicesConfig, callId: string, callerId: number | null, calleeId: number | null): Promise<void> {
  await db.query(
    `INSERT INTO live_calls (sip_call_id, caller_user_id, callee_user_id) VALUES ($1, $2, $3) ON CONFLICT (sip_call_id) DO NOTHING`,
    [callId, callerId, calleeId],
  );
  const parties = [callerId, calleeId].filter((id): id is number => id !== null);
  const starter = parties.length ? await autoRecordingParty(db, parties) : null;
  if (starter !== null) await controlRecording(db, cfg, starter, callId, 'start').catch(() => undefined);
}

/**
 * Who a new call is recorded for from its first moment, if anyone: every party when the policy is
 * 'on'; on demand, a party who asked for all their calls to be recorded (the `auto_record_audio`
 * setting); nobody when any party's organisation turned recording off, which outranks a user's wish.
 */
export async function autoRecordingParty(db: Queryable, parties: readonly number[]): Promise<number | null> {
  const mode = await callPolicy(db, parties);
  if (mode === 'off') return null;
  if (mode === 'on') return parties[0] ?? null;
  for (const id of parties) if ((await ucSettingsOf(db, id)).auto_record_audio) return id;
  return null;
}

export interface FinishedLiveCall {
  caller_user_id: number | null;
  callee_user_id: number | null;
  started_at: Date | string;
  recording_segments: number;
}

/**
 * The call ended or failed: it can no longer be controlled (rtpengine closes the recording itself).
 * Returns what the call was, once: a repeated report finds nothing, so its recording is indexed once.
 */
export async function callFinished(db: Queryable, callId: string): Promise<FinishedLiveCall | null> {
  const { rows } = await db.query<FinishedLiveCall>(
    'DELETE FROM live_calls WHERE sip_call_id = $1 RETURNING caller_user_id, callee_user_id, started_at, recording_segments',
    [callId],
  );
  return rows[0] ?? null;
}
