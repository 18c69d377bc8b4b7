import { useEffect, useState } from 'react';
import { formatCallTimer } from '../model/callState';

/** HH:mm:ss since `since`, ticking each second. */
export function CallTimer({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const h = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(h);
  }, []);
  return <span className="call-timer">{formatCallTimer((now - since) / 1000)}</span>;
}
