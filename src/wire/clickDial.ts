import * as z from 'zod/mini';
import { ROUTABLE_NUMBER } from './calling';

/**
 * "Call my phone first" (Preferences ▸ Calling ▸ click-dial), kept as the user preference
 * `uc-click-dial`: when on, Call rings the chosen device first and, once it is answered, the device
 * calls the number. Only the desk phone can be chosen: a mobile would need the gateway to carry out
 * the transfer (REFER), which this deployment's gateway does not.
 */
export const CLICK_DIAL_DEVICES = ['desk'] as const;
export const ClickDialSetting = z.strictObject({
  enabled: z.boolean(),
  device: z.enum(CLICK_DIAL_DEVICES),
});
export type ClickDialSetting = z.infer<typeof ClickDialSetting>;
export const CLICK_DIAL_OFF: ClickDialSetting = { enabled: false, device: 'desk' };

/** `POST /v1/calls/click-dial`: an extension or an outside number, as Kamailio routes them. */
export const ClickDialRequest = z.strictObject({
  number: z.string().check(z.regex(ROUTABLE_NUMBER, 'Must be an extension (1–5 digits) or a number of 6–15 digits, optionally with +')),
});
export type ClickDialRequest = z.infer<typeof ClickDialRequest>;

/** The answer once the device was answered and told to call the number (the call itself rings there). */
export const ClickDialResponse = z.object({
  state: z.literal('calling'),
  device: z.enum(CLICK_DIAL_DEVICES),
  number: z.string(),
});
export type ClickDialResponse = z.infer<typeof ClickDialResponse>;

/** The `error` codes of a refused or failed click-dial, each with its own message for the user. */
export const CLICK_DIAL_ERRORS = {
  off: 'click_dial_off',
  noDevice: 'no_desk_phone',
  noAnswer: 'device_no_answer',
  declined: 'device_declined',
  ownNumber: 'own_number',
  inProgress: 'click_dial_in_progress',
  tooMany: 'too_many_click_dials',
  unavailable: 'click_dial_unavailable',
} as const;
