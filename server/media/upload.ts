import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors';
import { textProblem } from '../input-guard';

const malformed = () => new ApiError(400, 'invalid_multipart', 'The upload is not a complete multipart/form-data body');

/**
 * The one file of a multipart upload, read whole. A body cut short or malformed is the client's
 * fault (400), a file over the scope's limit a 413 built by the caller; busboy's own errors carry no
 * code, so anything else from reading is taken as malformed input.
 */
export async function readUpload(request: FastifyRequest, tooLarge: () => ApiError): Promise<{ file: MultipartFile; bytes: Buffer } | null> {
  let file: MultipartFile | undefined;
  try {
    file = await request.file();
  } catch {
    throw malformed();
  }
  if (!file) return null;
  const nameProblem = textProblem(file.filename) ?? textProblem(file.fieldname);
  if (nameProblem) throw new ApiError(400, 'invalid_text', `Invalid file name: ${nameProblem}`);
  try {
    return { file, bytes: await file.toBuffer() };
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw malformed();
  }
}
