import { lazy } from 'react';

// recharts and @mantine/charts stay out of the monitor page's chunk: they load once a widget has
// something to draw, and a dashboard of tables and lists never loads them.
export const TopBarsChart = lazy(async () => ({ default: (await import('./charts')).TopBarsChart }));
export const StackedAreaChart = lazy(async () => ({ default: (await import('./charts')).StackedAreaChart }));
export const StackedBarsChart = lazy(async () => ({ default: (await import('./charts')).StackedBarsChart }));
