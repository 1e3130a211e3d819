import { type KeyObject, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { companies, credentials, departments, users } from '../db/schema';
import { rebuildActivityRollups } from '../modules/activity/rollups';
import { rebuildRollups } from '../modules/execution-logs/rollups';
import { assignRole, ensureBuiltInRole } from '../modules/roles/queries';
import { ensureTreeRoot } from '../modules/workflows/queries';
import { hashPassword } from '../platform/passwords';
import { seedDemoActivities } from './demo-activities';
import { seedDemoActivity } from './demo-activity';
import { seedDemoHistory } from './demo-history';
import { DEMO_LICENSES, seedDemoLicenses, seedDemoPremiumActivities, seedDemoSoloAccounts } from './demo-licenses';
import { seedDemoSchedules } from './demo-schedules';
import { seedDemoStatuses } from './demo-statuses';
import type { DemoTenant } from './demo-tenant';
import { seedDemoWorkflows } from './demo-workflows';
import { DEMO_ADMIN_PASSWORD } from './provider-admin';

type DepartmentPlan = { name: string; children?: DepartmentPlan[] };
type Person = { firstName: string; lastName: string };

/** People by full name, separated by commas: the first word is the first name, the rest the last name. */
const people = (names: string): Person[] =>
  names.split(',').map((name) => {
    const [firstName = '', ...last] = name.trim().split(' ');
    return { firstName, lastName: last.join(' ') };
  });

type CompanyPlan = {
  name: string;
  domain: string;
  industry: string;
  /** Where its working day is: the demo history's hours and weekends. */
  timeZone: string;
  /** How busy its people keep the robots (demo-history.ts: 1 as planned). */
  volume: number;
  head: Person;
  departments: DepartmentPlan[];
  staff: Person[];
};

/** Three companies in different industries; every demo account signs in with the demo password. */
export const DEMO_COMPANIES: CompanyPlan[] = [
  {
    name: 'Northwind Logistics',
    domain: 'northwind.test',
    industry: 'logistics',
    timeZone: 'America/Chicago',
    volume: 1.2,
    head: { firstName: 'Maria', lastName: 'Santos' },
    departments: [
      { name: 'Operations', children: [{ name: 'Dispatch' }, { name: 'Warehouse Automation' }] },
      { name: 'Finance', children: [{ name: 'Billing' }] },
      { name: 'Customer Care' },
    ],
    staff: people(`
      James Whitaker, Priya Raman, Tomás Herrera, Grace Liu, Samuel Adeyemi, Hannah Becker,
      Lucas Moreau, Fatima Haddad, Oliver Nguyen, Chloe Anderson, Mateo Rossi, Amara Okoye`),
  },
  {
    name: 'Harbor Mutual Insurance',
    domain: 'harbormutual.test',
    industry: 'insurance',
    timeZone: 'Europe/London',
    volume: 0.9,
    head: { firstName: 'David', lastName: 'Okafor' },
    departments: [
      { name: 'Claims', children: [{ name: 'Claims Intake' }, { name: 'Fraud Review' }] },
      { name: 'Underwriting' },
      { name: 'Policy Services', children: [{ name: 'Renewals' }] },
    ],
    staff: people(`
      Emily Carter, Rajesh Kumar, Sofia Lindqvist, Michael O'Brien, Yuki Sato, Daniel Schmidt,
      Isabela Costa, Ahmed Mansour, Laura Jensen, Kwame Mensah, Elena Popescu, Ryan Fitzgerald`),
  },
  {
    name: 'Cedar Health Partners',
    domain: 'cedarhealth.test',
    industry: 'healthcare',
    timeZone: 'America/New_York',
    volume: 1,
    head: { firstName: 'Aiko', lastName: 'Tanaka' },
    departments: [
      { name: 'Patient Accounts', children: [{ name: 'Insurance Verification' }] },
      { name: 'Clinical Records' },
      { name: 'Revenue Cycle', children: [{ name: 'Denials Management' }, { name: 'Coding' }] },
    ],
    staff: people(`
      Noah Williams, Ana Ferreira, Benjamin Cohen, Mei Chen, Victor Alvarez, Zara Hussain,
      Ethan Brooks, Ingrid Nilsen, Kofi Asante, Julia Novak, Arjun Mehta, Lea Dubois`),
  },
];

export function emailOf(person: Person, domain: string) {
  const local = `${person.firstName}.${person.lastName}`
    .normalize('NFD')
    .replace(/[^A-Za-z.]/g, '')
    .toLowerCase();
  return `${local}@${domain}`;
}

/** Seeds the demo on an empty embedded database (docs/architecture.md, "Demo data"). */
export async function seedDemo(db: Executor, signingKey: KeyObject) {
  // One hash for every demo account: seeding stays fast, and they all share the demo password.
  const passwordHash = await hashPassword(DEMO_ADMIN_PASSWORD);
  const now = Date.now();

  for (const [companyIndex, plan] of DEMO_COMPANIES.entries()) {
    const tenantId = randomUUID();
    const [company] = await db
      .insert(companies)
      .values({ tenantId, name: plan.name, emailAddress: `contact@${plan.domain}`, industryTypeKey: plan.industry })
      .returning({ id: companies.id });
    const companyId = company!.id;
    const roleIds = {
      admin: await ensureBuiltInRole(db, tenantId, 'COMPANY_ADMINISTRATOR'),
      head: await ensureBuiltInRole(db, tenantId, 'DEPARTMENT_HEAD'),
      employee: await ensureBuiltInRole(db, tenantId, 'EMPLOYEE'),
    };
    await ensureTreeRoot(db, tenantId);

    const addUser = async (person: Person, departmentId: number | null, roleId: number) => {
      const [user] = await db
        .insert(users)
        .values({ tenantId, companyId, departmentId, ...person, emailAddress: emailOf(person, plan.domain) })
        .returning({ id: users.id });
      await db.insert(credentials).values({ userId: user!.id, passwordHash, passwordChangedAt: now });
      await assignRole(db, user!.id, roleId);
      return user!.id;
    };

    const headId = await addUser(plan.head, null, roleIds.admin);
    await db.update(companies).set({ headId }).where(eq(companies.id, companyId));

    // Walk the tree: each department gets a head from the staff list, the rest are employees.
    const staff = [...plan.staff];
    const leaves: number[] = [];
    const seeded: DemoTenant = { tenantId, companyId, departments: [], staffIds: [], now };
    const addDepartment = async (department: DepartmentPlan, parentId: number | null) => {
      const [row] = await db
        .insert(departments)
        .values({ tenantId, name: department.name, parentId })
        .returning({ id: departments.id });
      const departmentId = row!.id;
      const head = staff.shift();
      let headId: number | null = null;
      if (head) {
        headId = await addUser(head, departmentId, roleIds.head);
        await db.update(departments).set({ headId }).where(eq(departments.id, departmentId));
        seeded.staffIds.push(headId);
      }
      seeded.departments.push({ id: departmentId, name: department.name, parentId, headId });
      leaves.push(departmentId);
      for (const child of department.children ?? []) await addDepartment(child, departmentId);
    };
    for (const department of plan.departments) await addDepartment(department, null);

    let index = 0;
    for (const person of staff) {
      seeded.staffIds.push(await addUser(person, leaves[index % leaves.length]!, roleIds.employee));
      index += 1;
    }
    await seedDemoStatuses(db, seeded);
    await seedDemoSchedules(db, seeded);
    await seedDemoLicenses(db, seeded, DEMO_LICENSES[companyIndex] ?? [], signingKey);
    // A month of the staff's working days on the monitor, under their keys (issue 17).
    await seedDemoActivity(db, seeded);
    await seedDemoWorkflows(db, seeded);
    await seedDemoHistory(db, seeded, { timeZone: plan.timeZone, volume: plan.volume, seed: companyIndex + 1 });
  }
  // The history's rollups in one pass over its logs (a savepoint in the caller's transaction).
  await rebuildRollups(db);
  await rebuildActivityRollups(db);
  await seedDemoActivities(db, now);
  await seedDemoPremiumActivities(db);
  await seedDemoSoloAccounts(db, now, signingKey);
}
