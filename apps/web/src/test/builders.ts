import type { Company } from '@opsdeck/contract/companies';
import type { Department } from '@opsdeck/contract/departments';
import type { Role } from '@opsdeck/contract/roles';
import type { Schedule } from '@opsdeck/contract/schedules';
import type { Status } from '@opsdeck/contract/statuses';
import type { Task } from '@opsdeck/contract/tasks';
import type { User } from '@opsdeck/contract/users';
import { reloadSessionFromStorage } from '../lib/session';
import { buildProfile, fakeApi } from './fake-api';

/** Factories with overrides (bulletproof-react style) for the records the console lists. */
export function buildCompany(overrides: Partial<Company> = {}): Company {
  return {
    id: 5,
    tenantId: 'tenant-acme',
    name: 'Acme Robotics',
    emailAddress: 'grace@acme.test',
    industryType: { key: 'manufacturing', name: 'Manufacturing' },
    head: {
      id: 7,
      firstName: 'Grace',
      lastName: 'Hopper',
      completeName: 'Grace Hopper',
      emailAddress: 'grace@acme.test',
    },
    license: null,
    ...overrides,
  };
}

export function buildDepartment(overrides: Partial<Department> = {}): Department {
  const id = overrides.id ?? 1;
  return {
    id,
    name: `Department ${id}`,
    head: { id: 7, completeName: 'Ada Lovelace' },
    headId: 7,
    parent: null,
    parentId: null,
    tenantId: 'tenant-acme',
    companyName: 'Acme Robotics',
    archived: false,
    ...overrides,
  };
}

export function buildStatus(overrides: Partial<Status> = {}): Status {
  const id = overrides.id ?? 1;
  const departmentId = overrides.departmentId ?? 1;
  return {
    id,
    name: `Status ${id}`,
    department: { id: departmentId, name: `Department ${departmentId}` },
    departmentId,
    threshold: 0,
    color: '#000000',
    icon: 'data:image/png;base64,',
    fileName: 'icon.png',
    trackIdle: false,
    editable: true,
    builtIn: false,
    tenantId: 'tenant-acme',
    ...overrides,
  };
}

export function buildTask(overrides: Partial<Task> = {}): Task {
  const id = overrides.id ?? 1;
  return {
    id,
    name: `Task ${id}`,
    status: { id: 1, name: 'Status 1' },
    department: { id: 1, name: 'Department 1' },
    editable: true,
    tenantId: 'tenant-acme',
    ...overrides,
  };
}

export function buildRole(overrides: Partial<Role> = {}): Role {
  const id = overrides.id ?? 1;
  return {
    id,
    name: `Role ${id}`,
    isProtected: false,
    tenantId: 'tenant-acme',
    companyName: 'Acme Robotics',
    authorities: [],
    editable: true,
    deletable: true,
    ...overrides,
  };
}

export function buildUser(overrides: Partial<User> = {}): User {
  const id = overrides.id ?? 1;
  return {
    id,
    firstName: `User${id}`,
    lastName: 'Doe',
    completeName: `User${id} Doe`,
    emailAddress: `user${id}@acme.test`,
    departmentId: 1,
    displayDepartment: 'Department 1',
    groups: [],
    displayGroups: '',
    companyId: 5,
    companyName: 'Acme Robotics',
    tenantId: 'tenant-acme',
    archived: false,
    deletable: true,
    ...overrides,
  };
}

export function buildSchedule(overrides: Partial<Schedule> = {}): Schedule {
  return {
    id: 1,
    userId: 1,
    firstName: 'User1',
    lastName: 'Doe',
    scheduleStart: 0,
    scheduleEnd: 1,
    archived: false,
    tenantId: 'tenant-acme',
    ...overrides,
  };
}

type Handlers = Parameters<typeof fakeApi>[0];

/**
 * A stored session of a user holding `auths` (a company user of Acme unless the profile says
 * otherwise), with the API answering `handlers` besides the profile.
 */
export function signedIn(auths: string[], handlers: Handlers = {}, profile: Parameters<typeof buildProfile>[0] = {}) {
  window.localStorage.setItem('opsdeck.authToken', 'tok-1');
  reloadSessionFromStorage();
  return fakeApi({
    'GET /api/user/profile/current-user': () => ({ body: buildProfile({ auths, ...profile }) }),
    ...handlers,
  });
}
