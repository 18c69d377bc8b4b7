/*
 * The frame's push subjects and delay, without zod: the boot chunk's maintenance check reads them
 * (zod would cost the first screen about 8 kB).
 */

/** The XMPP headline subject the API pushes when maintenance is switched on or off. */
export const MAINTENANCE_SUBJECT = 'urn:uc:maintenance:0';
/** The XMPP headline subject of a new voicemail; its body is a VoicemailNotice as JSON. */
export const VOICEMAIL_SUBJECT = 'urn:uc:voicemail:0';
/** The specification's broadcast delay: a headline about the service goes out this long after the change. */
export const HEADLINE_DELAY_MS = 666;
