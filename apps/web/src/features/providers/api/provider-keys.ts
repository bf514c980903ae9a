/** Query keys of the providers page: a save or delete asks the list again. */
export const providersKey = ['manage-providers'] as const;
export const supplySettingsKey = ['manage-supply'] as const;
