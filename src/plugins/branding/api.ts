import { Api, ApiError, Notifications, Session, type ServiceLookup } from '../../kernel';
import { BrandingUploadResponse } from '../../wire/branding';
import { log } from './log';
import { brandingState } from './state';

/** Uploads the organisation's logo; the server's refusal comes back as its message. */
export async function uploadLogo(s: ServiceLookup, file: File): Promise<{ ok: true } | { ok: false; message: string | null }> {
  const body = new FormData();
  body.append('organization_id', String(s.get(Session).profile.organization_id));
  body.append('type', 'logo');
  body.append('file', file, file.name);
  try {
    const saved = await s.get(Api).request('POST', '/setting/branding/upload', { body, schema: BrandingUploadResponse });
    brandingState.logoUrl = saved.logo_url;
    return { ok: true };
  } catch (err) {
    log.error('logo upload failed', err);
    return { ok: false, message: err instanceof ApiError && err.status < 500 ? err.body.message : null };
  }
}

/** Removes the logo for the whole organisation, with a toast either way. */
export async function removeLogo(s: ServiceLookup): Promise<void> {
  const notify = s.get(Notifications);
  try {
    await s.get(Api).raw('DELETE', '/setting/branding/upload', { query: { organization_id: String(s.get(Session).profile.organization_id), type: 'logo' } });
    brandingState.logoUrl = null;
    notify.toast({ titleKey: 'branding:toasts.removed', tone: 'success', timeoutMs: 4000 });
  } catch (err) {
    log.error('logo removal failed', err);
    notify.toast({ titleKey: 'branding:toasts.removeFailed', ...(err instanceof ApiError && err.status < 500 ? { message: err.body.message } : {}), tone: 'error' });
  }
}
