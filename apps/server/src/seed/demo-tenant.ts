/** What the demo seed has made for one company, handed to the seeds of the later areas. */
export type DemoTenant = {
  tenantId: string;
  companyId: number;
  /** In creation order: parents before their children. */
  departments: { id: number; name: string; parentId: number | null; headId: number | null }[];
  /** Every user of the company except its head. */
  staffIds: number[];
  now: number;
};

/**
 * How many days of runs the demo starts with (demo-history.ts): the workflows, licences and keys
 * the history runs are dated before it.
 */
export const DEMO_HISTORY_DAYS = 90;
