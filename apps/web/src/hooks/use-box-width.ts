import { type RefObject, useLayoutEffect, useRef, useState } from 'react';

/** A ref for a chart's box and its width, followed as it changes (window resized, menu folded); `fallback` until measured. */
export function useBoxWidth(fallback: number): [RefObject<HTMLDivElement | null>, number] {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [box, width > 0 ? width : fallback];
}
