import { CalendarDays, Circle, History, Mail, MessageSquare, Mic, Phone, Settings, Users, Voicemail, type LucideIcon } from 'lucide-react';

/*
 * The navigation rail's icons, by the names plugins give (NavContribution.icon). SVG rather than
 * emoji: emoji depend on the machine's fonts (a Debian desktop without an emoji font showed empty
 * boxes) and cannot follow the theme's colour.
 */
const ICONS: Record<string, LucideIcon> = {
  history: History,
  chat: MessageSquare,
  texts: Mail,
  contacts: Users,
  voicemail: Voicemail,
  recordings: Mic,
  calls: Phone,
  meetings: CalendarDays,
  settings: Settings,
};

export function NavIcon({ name }: { name: string }) {
  const Icon = ICONS[name] ?? Circle;
  return <Icon className="nav-icon" size={22} strokeWidth={1.75} aria-hidden="true" focusable="false" />;
}
