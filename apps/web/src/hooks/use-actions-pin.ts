import { BREAKPOINT, useMediaQuery } from './use-media-query';

/**
 * Where a table's action column is pinned: to the right edge from a tablet's width (antd's md) up. On a phone a
 * pinned column takes most of the table's width and hides the first columns (an order number cut to "D202…")
 * under it, so there it scrolls with the others.
 */
export function useActionsPin(): 'right' | undefined {
  return useMediaQuery(BREAKPOINT.md) ? 'right' : undefined;
}
