/*
 * Its own module, without zod: the preferences plugin's boot state reads it (wire/preferences.ts
 * would bring zod into the first screen).
 */
/**
 * The five dashboard backgrounds (public/backgrounds/), stored as `uc-dashboard-background` =
 * { url, random }: the preferences choose one, the dashboard shows it (random: any of the five, at
 * each visit).
 */
export const DASHBOARD_BACKGROUNDS = ['dawn', 'lagoon', 'dusk', 'meadow', 'night'] as const;
export type DashboardBackgroundName = (typeof DASHBOARD_BACKGROUNDS)[number];
export const dashboardBackgroundUrl = (name: DashboardBackgroundName) => `/backgrounds/${name}.svg`;
export interface DashboardBackground {
  url: string | null;
  random: boolean;
}
