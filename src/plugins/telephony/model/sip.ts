/**
 * The SIP address of what the user dialled: a number at the user's SIP domain; something that
 * already is an address (`sip:`, `sips:`, `tel:`…) is used as it is.
 */
export function sipUri(number: string, domain: string): string {
  return number.includes(':') ? number : `sip:${number}@${domain}`;
}

/** The user part (the extension) of `sip:<extension>@<domain>`, if the address has one. */
export function extensionOf(uri: string | null | undefined): string | undefined {
  return uri?.match(/^sips?:([^@;]+)@/)?.[1];
}
