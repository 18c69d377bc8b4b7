/*
 * A message's time in the log: hours and minutes today, with the date before. Making an
 * Intl.DateTimeFormat costs far more than formatting with one (a conversation re-rendering 100
 * messages spent ~20 ms per render making them), so each language's two formats are made once.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function format(lang: string, today: boolean): Intl.DateTimeFormat {
  const key = `${today ? 't' : 'd'}|${lang}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(lang, today ? { hour: '2-digit', minute: '2-digit' } : { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
    formats.set(key, f);
  }
  return f;
}

export function messageTime(ts: number, lang: string, now: Date = new Date()): string {
  const d = new Date(ts);
  return format(lang, now.toDateString() === d.toDateString()).format(d);
}
