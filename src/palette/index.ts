export { palettePlugin } from './plugin';
export { PaletteHost } from './PaletteHost';
export { openPalette, closePalette, paletteState } from './store';
