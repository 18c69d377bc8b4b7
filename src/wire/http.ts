/** The status codes the client and server name. Apart from the schemas, so the login page gets it without zod. */
export const HTTP = { BAD_REQUEST: 400, UNAUTHORIZED: 401, FORBIDDEN: 403, NOT_FOUND: 404, GONE: 410, TOO_MANY_REQUESTS: 429 } as const;
