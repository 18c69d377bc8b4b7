/** The one lazy chunk with its strings in: what the overlay host and the `#12` resolver wait for. */
export const loadChunk = () => import('./lazy').then(async (m) => (await m.strings(), m));
