import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as z from 'zod/mini';
import type { ApiErrorBody } from '../src/wire/common';

type Detail = NonNullable<ApiErrorBody['details']>[number];

/** An error whose status and body are meant for the client; anything else becomes a bare 500. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: Detail[],
    /** Seconds before trying again (429), also sent as Retry-After. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): ApiErrorBody {
    return {
      error: this.code,
      message: this.message,
      ...(this.details ? { details: this.details } : {}),
      ...(this.retryAfter !== undefined ? { retry_after: this.retryAfter } : {}),
    };
  }
}

export const unauthorized = (message = 'Authentication required') => new ApiError(401, 'unauthorized', message);
export const forbidden = (message = 'You are not authorized to access this resource') => new ApiError(403, 'forbidden', message);
export const notFound = (message: string) => new ApiError(404, 'not_found', message);

export function zodDetails(error: z.core.$ZodError): Detail[] {
  return error.issues.map((issue) => ({
    path: issue.path.length ? issue.path.map(String).join('.') : '(root)',
    message: issue.message,
  }));
}

/**
 * Validates `data`, turning a failure into a 400 that lists every offending field, or into
 * `refusal()` for an input whose refusal has its own code the client relies on.
 */
export function parseOrThrow<S extends z.ZodMiniType>(schema: S, data: unknown, what: string, refusal?: () => ApiError): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw refusal?.() ?? new ApiError(400, 'validation_failed', `Invalid ${what}`, zodDetails(result.error));
  return result.data;
}

/** Fastify's own errors (body parsing, bad URLs…) mapped to the API's error shape. */
const FRAMEWORK_ERRORS: Record<string, { status: number; error: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, error: 'invalid_json', message: 'Request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, error: 'invalid_json', message: 'Request body is empty but content-type is application/json' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, error: 'unsupported_media_type', message: 'Request body must be application/json' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, error: 'payload_too_large', message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, error: 'bad_request', message: 'Request body size did not match Content-Length' },
  FST_ERR_BAD_URL: { status: 400, error: 'bad_request', message: 'Malformed URL' },
};

function sendError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ApiError) return reply.code(error.statusCode).send(error.toBody());
  const fe = error as FastifyError;
  const known = fe.code ? FRAMEWORK_ERRORS[fe.code] : undefined;
  if (known) return reply.code(known.status).send({ error: known.error, message: known.message });
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return reply.code(fe.statusCode).send({ error: 'bad_request', message: fe.message });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send({ error: 'internal_error', message: 'Internal server error' });
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(sendError);
}

/** For Fastify's `frameworkErrors` option (errors raised before routing, e.g. a malformed URL). */
export const frameworkErrorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
  sendError(error, request, reply);
