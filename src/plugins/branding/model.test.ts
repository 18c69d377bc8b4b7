import { describe, expect, it } from 'vitest';
import { LOGO_MAX_BYTES } from '../../wire/branding';
import { accentCss, contrast } from './accent';
import { fileProblem } from './model';

describe('branding rules', () => {
  it('contrast is the WCAG ratio', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#ffffff', '#ffffff')).toBe(1);
    expect(contrast('#2563eb', '#ffffff')).toBeCloseTo(5.17, 1);
  });

  it('applies a readable accent to the light theme with the text colour that reads on it', () => {
    expect(accentCss('#2563eb')).toBe(":root:not([data-theme='dark']) { --accent: #2563eb; --accent-text: #ffffff; --focus: #2563eb; }");
    // A dark brand colour: white text.
    expect(accentCss('#7a1f5c')).toContain('--accent-text: #ffffff');
  });

  it('refuses an accent that would not read, or that is not a colour at all (no CSS injection)', () => {
    // Yellow: near-black text would read, but as a ring on white it is invisible (< 3:1).
    expect(accentCss('#ffd400')).toBeNull();
    expect(accentCss('#cccccc')).toBeNull();
    expect(accentCss('red; } body { display: none')).toBeNull();
    expect(accentCss('#12345')).toBeNull();
  });

  it('a logo must be an image of an accepted type within the size limit', () => {
    expect(fileProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(fileProblem({ type: 'image/svg+xml', size: 1000 })).toBe('type');
    expect(fileProblem({ type: 'text/html', size: 10 })).toBe('type');
    expect(fileProblem({ type: 'image/jpeg', size: LOGO_MAX_BYTES + 1 })).toBe('size');
  });
});
