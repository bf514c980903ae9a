import { useEffect, useState } from 'react';

/** The time, refreshed every `intervalMs`: countdowns ("in 3 days") stay right on a screen left open. */
export function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}
