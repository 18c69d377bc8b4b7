import { proxy } from 'valtio';

/** Nothing known until the plugin reads the configuration; the upload dialog closed. */
export const initialBrandingState = () => ({
  /** The logo's address (the configuration's logo_url, then each upload's); null: the organisation has none. */
  logoUrl: null as string | null,
  /** The upload dialog is open. */
  dialogOpen: false,
});

/** Live state: the top bar's logo and the commands read it; the lazy chunk writes it. */
export const brandingState = proxy(initialBrandingState());

export function resetBrandingState(): void {
  Object.assign(brandingState, initialBrandingState());
}
