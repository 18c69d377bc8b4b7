import type { AccessTokenResponse as AccessTokenResponseType } from './auth';
import { int, object, oneOf, parser, str, type Parser } from './check';

/** The access token a sign-in or a renewal answers, checked without zod (see ./bootResponses). */
export const AccessTokenResponse: Parser<AccessTokenResponseType> = parser(
  object({ access_token: str, token_type: oneOf('Bearer'), expires_in: int, user_id: int }),
);
