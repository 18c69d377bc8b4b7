/** The landing path after login: only same-origin paths, never the login page itself. */
export function safeRedirect(target: string | undefined): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/login') || target.startsWith('/logout')) return '/';
  return target;
}
