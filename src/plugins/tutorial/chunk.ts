/** The one lazy chunk with its strings in: what the tour host waits for. */
export const loadChunk = () => import('./lazy').then(async (m) => (await m.strings(), m));
