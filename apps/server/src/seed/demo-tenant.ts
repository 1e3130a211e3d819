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
