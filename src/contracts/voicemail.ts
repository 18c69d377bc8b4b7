/** The voicemail plugin's screen; `/voicemail/<id>` opens one message (the dashboard's feed leads there). */
export const VOICEMAIL_PATH = '/voicemail';
