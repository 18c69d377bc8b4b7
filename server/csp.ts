import { ejabberdNodes, nodeUploadUrl } from './services/ejabberd-nodes';
import type { ServicesConfig } from './services/layout';
import type { UccSettings } from './settings';

const origin = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * The Content-Security-Policy of every HTML answer: the client's own scripts and styles only, the
 * chat, SIP and Janus (meetings; every instance of a cluster) WebSockets and the chat upload host from this deployment's settings, blob: for
 * media the client builds itself, and no framing by anyone (clickjacking).
 */
export function contentSecurityPolicy(settings: UccSettings, services: Pick<ServicesConfig, 'uploadUrl' | 'ports' | 'cluster'>): string {
  const sockets = [...settings.xmppWsUrls, settings.xmppWsUrl, ...settings.sipWsUrls, settings.sipWsUrl, ...settings.janusWsUrls].map(origin).filter((o): o is string => !!o);
  // In a cluster each ejabberd node hands out upload slots on its own listener (see ejabberd.ts).
  const uploads = [services.uploadUrl, ...ejabberdNodes(services).slice(1).map((n) => nodeUploadUrl(services, n))].map(origin).filter((o): o is string => !!o);
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    // react-aria and cmdk's scroll lock inject <style> elements and style attributes at run time,
    // and a static index.html has no per-request nonce to hand them. Styles cannot run code; the
    // script policy, which does the protecting, stays without any inline allowance.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...uploads],
    'media-src': ["'self'", 'blob:', ...uploads],
    'connect-src': ["'self'", ...sockets, ...uploads],
    'font-src': ["'self'"],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${[...new Set(sources)].join(' ')}`)
    .join('; ');
}
