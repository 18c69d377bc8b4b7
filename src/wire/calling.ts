import * as z from 'zod/mini';

/** Where forwarding and inbound rules may send a call: the product's fixed list of destination types. */
export const DESTINATION_TYPES = [
  'cid_route', 'phone', 'slaline', 'aa', 'ah', 'group', 'conferenceHub', 'conference', 'disaHub', 'disa', 'queue', 'directory', 'cm', 'custom',
  'findme', 'virtual_attendant', 'fax', 'hairpin', 'repeat_greeting', 'busy', 'box', 'ext', 'trunk', 'outside',
] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

/**
 * Where this deployment can really send a call: another user's extension, a number through the
 * gateway, or the user's own voicemail box (`box`). The other types belong to PBX features this product does not run (queues, IVRs…), so
 * saving one is refused rather than stored and silently ignored.
 */
export const ROUTABLE_DESTINATION_TYPES = ['ext', 'phone', 'outside', 'box'] as const satisfies readonly DestinationType[];

/** A number Kamailio routes: an extension (1–5 digits) or a longer number, optionally with +. */
export const ROUTABLE_NUMBER = /^(\+?[0-9]{6,15}|[0-9]{1,5})$/;

export const Destination = z.object({
  destination_type: z.enum(DESTINATION_TYPES),
  /** The destination's id (a user id for `ext`); null when the type needs none. */
  destination_id: z.nullable(z.string().check(z.maxLength(64))),
  destination_name: z.nullable(z.string().check(z.maxLength(200))),
  /** The number or extension dialled. */
  destination_parameter: z.nullable(z.string().check(z.maxLength(32))),
});
export type Destination = z.infer<typeof Destination>;

export const FORWARD_TYPES = ['default', 'always'] as const;
export type ForwardType = (typeof FORWARD_TYPES)[number];

/** `GET|PUT /v1/broad/forwards/{default|always}` */
export const ForwardSetting = z.object({
  enabled: z.boolean(),
  destination: z.nullable(Destination),
});
export type ForwardSetting = z.infer<typeof ForwardSetting>;

/** `GET|PUT /v1/broad/donotdisturb` */
export const DoNotDisturb = z.object({ do_not_disturb: z.boolean() });
export type DoNotDisturb = z.infer<typeof DoNotDisturb>;

/** `GET /v1/broad/destinations`: where the user may forward calls. */
export const DestinationsResponse = z.object({ items: z.array(Destination) });
export type DestinationsResponse = z.infer<typeof DestinationsResponse>;

/** Refusal of a DND or forward save to someone not allowed to change it; clients match 'authorized' in it. */
export const NOT_AUTHORIZED_TO_UPDATE = 'You are not authorized to make updates';

/** Forwarding status is refreshed this often by the client. */
export const FORWARDING_REFRESH_MS = 300_000;

export type ForwardProblem = 'destination_required' | 'destination_id_required' | 'destination_number_invalid' | 'destination_not_available';

/**
 * The calling-save rules that apply here: forwarding enabled needs a destination
 * type; a type that needs an id (or a number) needs one; and only destinations this deployment can
 * route are accepted. Null when the setting may be saved.
 */
export function forwardProblem(s: ForwardSetting): ForwardProblem | null {
  if (!s.enabled) return null;
  const d = s.destination;
  if (!d) return 'destination_required';
  if (!(ROUTABLE_DESTINATION_TYPES as readonly string[]).includes(d.destination_type)) return 'destination_not_available';
  // The user's own voicemail box: the server knows the mailbox.
  if (d.destination_type === 'box') return null;
  // An extension is named by its user; the server looks the number up itself.
  if (d.destination_type === 'ext') return d.destination_id ? null : 'destination_id_required';
  if (!d.destination_parameter || !ROUTABLE_NUMBER.test(d.destination_parameter.replace(/[\s()-]/g, ''))) return 'destination_number_invalid';
  return null;
}

/** Kinds of device a user has registered: `browser` (WebSocket, this client) or `phone` (a desk or softphone). */
export const DEVICE_KINDS = ['browser', 'phone'] as const;

/**
 * `GET /v1/devices/check`: the user's phones registered with the SIP proxy now. `desk_phone` is
 * whether "Move call to desk phone" can reach one (a phone that is not a browser).
 */
export const DevicesCheckResponse = z.object({
  devices: z.array(
    z.object({
      kind: z.enum(DEVICE_KINDS),
      user_agent: z.nullable(z.string()),
      expires_at: z.string(),
    }),
  ),
  desk_phone: z.boolean(),
});
export type DevicesCheckResponse = z.infer<typeof DevicesCheckResponse>;

/** The transfer target of "Move call to desk phone": the user's own extension, phones only. */
export function deskPhoneUri(extension: string, domain: string): string {
  return `sip:${extension}@${domain};device=desk`;
}
