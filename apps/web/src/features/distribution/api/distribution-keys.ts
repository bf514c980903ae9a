/** Query keys of the distribution page: a payoff request or decision changes the figures and both lists. */
export const distributionKeys = {
  info: ['distribution', 'info'] as const,
  invite: ['distribution', 'invite'] as const,
  commission: ['distribution', 'commission'] as const,
  payoffs: ['distribution', 'payoffs'] as const,
  settings: ['distribution', 'settings'] as const,
};
