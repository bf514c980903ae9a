import type { ChannelStats } from '@resi/contract';

type Totals = ChannelStats['totals'];
export type ChannelMetric = keyof Totals;
export type ChannelDay = { period: string } & Totals;

const DAY_MS = 86_400_000;

/** Share of one step that reached the next; null when the step before had nobody (no ratio to show). */
export function conversion(reached: number, from: number): number | null {
  return from > 0 ? reached / from : null;
}

/** The funnel's rates over the totals: visit → registration, registration → paying, visit → paying. */
export function funnelRates(totals: Totals) {
  return {
    visitToRegistration: conversion(totals.registrations, totals.visits),
    registrationToPaying: conversion(totals.payingUsers, totals.registrations),
    visitToPaying: conversion(totals.payingUsers, totals.visits),
  };
}

/** Every UTC day of the window with the channels' rows summed, days without rows as zeros (a gap in the chart is a day). */
export function dailyTotals(stats: Pick<ChannelStats, 'from' | 'to' | 'rows'>): ChannelDay[] {
  const byDay = new Map<string, ChannelDay>();
  const start = Date.parse(`${stats.from}T00:00:00.000Z`);
  const end = Date.parse(`${stats.to}T00:00:00.000Z`);
  for (let at = start; at <= end; at += DAY_MS) {
    const period = new Date(at).toISOString().slice(0, 10);
    byDay.set(period, { period, visits: 0, registrations: 0, payingUsers: 0, orders: 0, revenue: 0 });
  }
  for (const row of stats.rows) {
    const day = byDay.get(row.day);
    if (!day) continue;
    day.visits += row.visits;
    day.registrations += row.registrations;
    day.payingUsers += row.payingUsers;
    day.orders += row.orders;
    day.revenue += row.revenue;
  }
  return [...byDay.values()];
}
