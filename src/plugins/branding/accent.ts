/*
 * The organisation's accent colour, applied at boot: nothing here may import the wire schemas
 * (zod), which the first screen does not load.
 */
/** WCAG relative luminance of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (l1 + 0.05) / (l2 + 0.05);
}

const HEX = /^#[0-9a-f]{6}$/i;
/** The light theme's surfaces the accent is drawn on (styles.css). */
const LIGHT_SURFACES = ['#ffffff', '#f7f7f8', '#f0f1f3'];

/**
 * The CSS that applies the organisation's accent colour to the light theme, or null when it would
 * not be readable: text on it (white or near-black, whichever reads better) needs 4.5:1, and the
 * accent as a focus ring or border on the light surfaces needs 3:1. The dark theme keeps its own
 * accent: a brand colour chosen for white paper rarely reads on a dark one.
 */
export function accentCss(accent: string): string | null {
  if (!HEX.test(accent)) return null;
  const text = contrast(accent, '#ffffff') >= contrast(accent, '#16181d') ? '#ffffff' : '#16181d';
  if (contrast(accent, text) < 4.5) return null;
  if (LIGHT_SURFACES.some((s) => contrast(accent, s) < 3)) return null;
  return `:root:not([data-theme='dark']) { --accent: ${accent}; --accent-text: ${text}; --focus: ${accent}; }`;
}

/** Applies the organisation's accent colour (when readable) through a style element; returns what takes it away. */
export function applyAccent(accent: string): () => void {
  const css = accentCss(accent);
  // Without a document (the manifests booted in Node by the plugins' tests) there is nothing to colour.
  if (!css || typeof document === 'undefined') return () => undefined;
  const style = document.createElement('style');
  style.dataset.branding = 'accent';
  style.textContent = css;
  document.head.append(style);
  return () => style.remove();
}
