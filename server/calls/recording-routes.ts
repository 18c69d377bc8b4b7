import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import { CallRecordingSettings, RecordingControlRequest, type PlatformConfiguration, type RecordingControlResponse } from '../../src/wire/recording';
import { listenForRecordingDtmf, RECORDING_DTMF } from './dtmf-recording';
import { controlRecording, RecordingControlError, recordingPolicy } from './recording-control';
import { ApiError, parseOrThrow } from '../errors';
import type { RouteContext } from '../context';

const CallIdParam = z.object({ callId: z.string().check(z.minLength(1), z.maxLength(255)) });

/** Call recording: the organisation's policy, and the dock's Start / Pause / Resume for a live call. */
export function registerRecordingRoutes(app: FastifyInstance, { db, requireUserId, requireViewer, services }: RouteContext): void {
  app.get('/v1/call-recording-settings', async (request): Promise<CallRecordingSettings> => {
    const { organizationId } = await requireViewer(request);
    const policy = await recordingPolicy(db, organizationId);
    return { ecr_call_recording_status: policy.mode, ecr_can_view_own_recordings: policy.canViewOwn };
  });

  app.get('/v1/platform-configuration', async (request): Promise<PlatformConfiguration> => {
    await requireUserId(request);
    return { ecr_pause_recording_dtmf_sequence: RECORDING_DTMF.pauseResume, ecr_on_demand_dtmf_sequence: RECORDING_DTMF.onDemand };
  });

  listenForRecordingDtmf(app, db, services);

  app.post('/v1/calls/:callId/recording', async (request): Promise<RecordingControlResponse> => {
    const userId = await requireUserId(request);
    const { callId } = parseOrThrow(CallIdParam, request.params, 'call id');
    const { action } = parseOrThrow(RecordingControlRequest, request.body, 'recording request');
    try {
      return await controlRecording(db, services, userId, callId, action);
    } catch (err) {
      if (err instanceof RecordingControlError) throw new ApiError(err.status, err.code, err.message);
      throw err;
    }
  });
}
