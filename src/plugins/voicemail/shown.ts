/** The ids the screen shows now, in order: next/previous walk through them. */
export const shownIds = { ids: [] as string[] };
