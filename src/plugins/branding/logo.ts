import { Api, type ServiceLookup } from '../../kernel';
import { log } from './log';

/** The logo as a blob URL for the top bar (the image needs the bearer token, like avatars); null when it cannot be had. */
export async function logoObjectUrl(s: ServiceLookup, url: string): Promise<string | null> {
  try {
    const res = await s.get(Api).raw('GET', url);
    return URL.createObjectURL(await res.blob());
  } catch (err) {
    log.error('logo fetch failed', err);
    return null;
  }
}
