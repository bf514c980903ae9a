/** Query keys of the inventory: an import, an edit or a retirement invalidates the list and the board together. */
export const staticInventoryKey = ['manage-static-inventory'] as const;
export const staticBoardKey = [...staticInventoryKey, 'board'] as const;
