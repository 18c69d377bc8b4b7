/** The history plugin's screen, where a missed call's notification leads. */
export const HISTORY_PATH = '/history';
