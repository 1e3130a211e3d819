import type { Executor } from '../db/client';
import { statuses, tasks } from '../db/schema';
import { circleIcon } from '../platform/png';
import type { DemoTenant } from './demo-tenant';

type StatusPlan = {
  name: string;
  color: string;
  threshold: number;
  trackIdle: boolean;
  /** Built-ins the agents rely on: shown, never changed or deleted. */
  builtIn?: boolean;
  iconSize: 24 | 48 | 128;
  tasks: string[];
};

/** The statuses every demo company works with; the built-ins belong to its first top department. */
const BUILT_IN: StatusPlan[] = [
  {
    name: 'Available',
    color: '#2f9e44',
    threshold: 0,
    trackIdle: true,
    builtIn: true,
    iconSize: 48,
    tasks: ['Queue processing', 'Case follow-up'],
  },
  { name: 'Offline', color: '#868e96', threshold: 0, trackIdle: false, builtIn: true, iconSize: 24, tasks: [] },
];

/** Per top department: a few statuses of its own, each with tasks. */
const PER_DEPARTMENT: StatusPlan[] = [
  { name: 'On Break', color: '#f59f00', threshold: 15, trackIdle: false, iconSize: 24, tasks: [] },
  { name: 'In Meeting', color: '#1971c2', threshold: 60, trackIdle: false, iconSize: 48, tasks: ['Team stand-up'] },
  { name: 'Training', color: '#7048e8', threshold: 45, trackIdle: true, iconSize: 128, tasks: ['Compliance course'] },
];

/** Statuses with icons (drawn here as png circles of the status colour), and tasks, for one demo company. */
export async function seedDemoStatuses(db: Executor, tenant: DemoTenant) {
  const roots = tenant.departments.filter((department) => department.parentId === null);
  if (roots.length === 0) return;
  const plans: { department: { id: number; name: string }; plan: StatusPlan; name: string }[] = BUILT_IN.map(
    (plan) => ({ department: roots[0]!, plan, name: plan.name }),
  );
  for (const [index, department] of roots.entries()) {
    // One status per top department carries its name, so the table shows where each belongs.
    for (const plan of PER_DEPARTMENT.slice(0, index === 0 ? 3 : 2)) {
      plans.push({ department, plan, name: index === 0 ? plan.name : `${plan.name} (${department.name})` });
    }
    plans.push({
      department,
      name: `${department.name} Focus Work`,
      plan: {
        name: 'Focus Work',
        color: '#0c8599',
        threshold: 30,
        trackIdle: true,
        iconSize: 24,
        tasks: [`${department.name} backlog`, `${department.name} reviews`],
      },
    });
  }

  for (const { department, plan, name } of plans) {
    const [row] = await db
      .insert(statuses)
      .values({
        tenantId: tenant.tenantId,
        departmentId: department.id,
        name,
        threshold: plan.threshold,
        color: plan.color,
        icon: circleIcon(plan.iconSize, plan.color),
        fileName: `${plan.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${plan.iconSize}.png`,
        trackIdle: plan.trackIdle,
        builtIn: plan.builtIn,
      })
      .returning({ id: statuses.id });
    if (plan.tasks.length === 0) continue;
    await db.insert(tasks).values(
      plan.tasks.map((taskName) => ({
        tenantId: tenant.tenantId,
        name: taskName,
        statusId: row!.id,
        departmentId: department.id,
      })),
    );
  }
}
