import type { Browser, Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { agentWorkflowId, demoAgentKey, signIn, startTestAgent, type TestAgent, USERS } from './support';

// A test here runs axe several times over a page and its modals: a minute, not the suite's 30 s, so
// that a busy machine (CI beside other work) does not fail a check that passes (seen at 25 to 30 s).
// The longest file of the browser suite: its groups (each describe below, whose tests share one
// page and run in order in one worker) go to whichever workers are free, each on its own server.
test.describe.configure({ mode: 'parallel', timeout: 60_000 });

/**
 * axe-core over every built screen, its panels and its create/edit modals, as each kind of user
 * meets them: no serious or critical violation of WCAG 2.1 A/AA. One sign-in per user and one page
 * load per screen keep the run short; the tests of a user share that page, so they run in order.
 */

const MANAGEMENT = '/dashboard/management';

interface Company {
  name: string;
  tenantId: string;
}

async function signedInPage(browser: Browser, email: string) {
  // A context of our own: axe's analyze needs one it can open a page in.
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email);
  return page;
}

async function openScreen(page: Page, path: string, heading: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

/** Opens a modal with `button`, checks it, and closes it with Escape. */
/**
 * Where a dialog's focus is once it opened: its form's first field, else inside it but not on its
 * close button (a question opens on its safe answer), else what is focused instead.
 */
const dialogFocus = (page: Page) =>
  page.evaluate(() => {
    const dialog = document.querySelector('[role=dialog]');
    const active = document.activeElement;
    if (!dialog || !active || !dialog.contains(active)) return `outside the dialog: ${active?.tagName}`;
    const first = dialog
      .querySelector('form')
      ?.querySelector('input:not([type=hidden]):not(:disabled), textarea:not(:disabled)');
    if (first) return active === first ? 'first field' : `${active.tagName}, not the first field`;
    return active.closest('.mantine-Modal-close') ? 'the close button' : 'inside';
  });

async function checkModal(page: Page, screen: string, button: ReturnType<Page['getByRole']>) {
  await button.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  // Every dialog opens on its first field, or on its safe answer: never the close button, never the page.
  await expect
    .poll(() => dialogFocus(page), { message: `${screen}: the focus once open` })
    .toMatch(/^(first field|inside)$/);
  // The page behind is inert and checked on its own: axe reads the modal only, which is quicker.
  await expectAccessible(page, screen, '.mantine-Modal-content');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
}

const firstEdit = (page: Page) =>
  page
    .getByRole('main')
    .getByRole('button', { name: /^Edit / })
    .first();

/** The management screens every company-level manager reaches, with their create and edit modals. */
function managementChecks(who: keyof typeof USERS, options: { admin: boolean }) {
  let page: Page;
  test.beforeAll(async ({ browser }) => {
    page = await signedInPage(browser, USERS[who].email);
  });
  test.afterAll(async () => {
    await page.context().close();
  });

  test('the dashboard shell', async () => {
    await page.goto('/dashboard');
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectAccessible(page, 'dashboard');
  });

  for (const [area, heading, create] of [
    ['users', 'Users', 'Create user'],
    ['statuses', 'Statuses', 'Create status'],
    ['tasks', 'Tasks', 'Create task'],
  ] as const) {
    test(`${heading} with its create and edit modals`, async () => {
      await openScreen(page, `${MANAGEMENT}/${area}`, heading);
      await expect(page.getByRole('table', { name: heading }).locator('tbody tr').first()).toBeVisible();
      await expectAccessible(page, heading);
      await checkModal(page, `${heading}: create`, page.getByRole('button', { name: create }));
      await checkModal(page, `${heading}: edit`, firstEdit(page));
    });
  }

  test('Departments, table and tree, with the create and edit modals', async () => {
    await openScreen(page, `${MANAGEMENT}/departments`, 'Departments');
    await expect(page.getByRole('tree', { name: 'Department hierarchy' })).toBeVisible();
    await expectAccessible(page, 'Departments');
    await checkModal(page, 'Departments: create', page.getByRole('button', { name: 'Create department' }));
    await checkModal(page, 'Departments: edit', firstEdit(page));
  });

  test('Roles with an accordion open, and the create and edit modals', async () => {
    // The built-in roles cannot be edited: one of our own opens the edit modal.
    const auth = {
      'X-App-Key': 'opsdeck-console',
      'X-Auth-Token': await page.evaluate(() => localStorage.getItem('opsdeck.authToken') ?? ''),
    };
    const companies = (await (await page.request.get('/api/company', { headers: auth })).json()) as Company[];
    const northwind = companies.find((company) => company.name === USERS.companyHead.company);
    const headers = { ...auth, 'X-Tenant-Id': northwind?.tenantId ?? '' };
    const name = `A11y ${who} ${Date.now().toString(36)}`;
    const created = await page.request.post('/api/usergroup', {
      headers,
      data: { name, authorityNames: ['VIEW_USER', 'ACCESS_USER_TAB'] },
    });
    expect(created.status(), await created.text()).toBe(200);
    const { id } = (await created.json()) as { id: number };
    try {
      await openScreen(page, `${MANAGEMENT}/roles`, 'Roles');
      const item = page.getByTestId('role-item').filter({ has: page.getByRole('button', { name, exact: true }) });
      await item.getByRole('button', { name, exact: true }).click();
      await expect(item.getByRole('list', { name: 'Authorities' })).toBeVisible();
      await expectAccessible(page, 'Roles');
      await checkModal(page, 'Roles: create', page.getByRole('button', { name: 'Create role' }));
      await checkModal(page, 'Roles: edit', page.getByRole('button', { name: `Edit role ${name}` }));
    } finally {
      await page.request.delete(`/api/usergroup/archiveRole/${id}`, { headers });
    }
  });

  test("the audit page filtered by action, and a record's before/after view", async () => {
    // A record of our own with changes: a role created (and deleted again) through the API.
    const auth = {
      'X-App-Key': 'opsdeck-console',
      'X-Auth-Token': await page.evaluate(() => localStorage.getItem('opsdeck.authToken') ?? ''),
    };
    const companies = (await (await page.request.get('/api/company', { headers: auth })).json()) as Company[];
    const northwind = companies.find((company) => company.name === USERS.companyHead.company);
    const headers = { ...auth, 'X-Tenant-Id': northwind?.tenantId ?? '' };
    const name = `A11y audit ${who} ${Date.now().toString(36)}`;
    const created = await page.request.post('/api/usergroup', {
      headers,
      data: { name, authorityNames: ['VIEW_USER', 'ACCESS_USER_TAB'] },
    });
    expect(created.status(), await created.text()).toBe(200);
    const { id } = (await created.json()) as { id: number };
    try {
      await openScreen(page, `${MANAGEMENT}/audit`, 'Audit Log');
      await page.getByRole('combobox', { name: 'Action', exact: true }).click();
      await page.getByRole('option', { name: 'Role created', exact: true }).click();
      const row = page.getByRole('table', { name: 'Audit log' }).getByRole('row').filter({ hasText: name });
      await expect(row).toBeVisible();
      await expectAccessible(page, 'Audit log filtered');
      await checkModal(page, 'Audit log: before/after', row);
    } finally {
      await page.request.delete(`/api/usergroup/archiveRole/${id}`, { headers });
    }
  });

  test('Schedules, its update and delete modes and the create modal', async () => {
    await openScreen(page, `${MANAGEMENT}/schedules`, 'Schedules');
    await expectAccessible(page, 'Schedules');
    await checkModal(page, 'Schedules: create', page.getByRole('button', { name: 'Create schedule' }));
    for (const mode of ['Update', 'Delete'] as const) {
      await page.getByRole('button', { name: 'Schedule settings' }).click();
      await page.getByRole('menuitem', { name: mode }).click();
      await expect(page.getByRole('button', { name: `${mode} selected` })).toBeVisible();
      await expectAccessible(page, `Schedules: ${mode.toLowerCase()} mode`);
    }
  });

  test('the placeholder screens and the forbidden page', async () => {
    for (const [path, heading] of [
      [`${MANAGEMENT}/targets`, 'Task Targets'],
      [`${MANAGEMENT}/transfers`, 'Transfers'],
      [`${MANAGEMENT}/dataentry`, 'Data Entry'],
    ] as const) {
      await openScreen(page, path, heading);
      await expectAccessible(page, heading);
    }
    await page.goto('/dashboard/forbidden');
    await expect(page.getByText('403')).toBeVisible();
    await expectAccessible(page, 'forbidden');
    if (!options.admin) {
      // A company head reaching a provider-only screen lands on the forbidden page the same way.
      await page.goto('/dashboard/license/companies');
      await expect(page).toHaveURL(/\/dashboard\/forbidden$/);
    }
  });
}

test.describe('accessibility, signed out', () => {
  test('login, its forgot and reset panels, and the unauthorized page', async ({ page }) => {
    // Five whole-page axe scans in one test: on a busy machine they alone took most of a minute.
    test.slow();
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    await expectAccessible(page, 'login');
    // The form's error state (both fields flagged) has its own colours.
    await page.getByLabel('Email').fill('someone@');
    await page.getByLabel('Password', { exact: true }).focus();
    await page.getByLabel('Email').focus();
    await expectAccessible(page, 'login with an error');

    await page.getByRole('link', { name: 'Forgot Password' }).click();
    await expect(page.getByRole('button', { name: 'Confirm' })).toBeVisible();
    await expectAccessible(page, 'forgot password');

    await page.goto('/login?resetPasswordKey=an-unknown-key-of-some-length-0123456789');
    await expect(page).not.toHaveURL(/resetPasswordKey/);
    await expect(page.getByRole('main')).toBeVisible();
    await expectAccessible(page, 'reset password');

    await page.goto('/unauthorized');
    await expect(page.getByText('401')).toBeVisible();
    await expectAccessible(page, 'unauthorized');
  });
});

test.describe('accessibility as the provider admin', () => {
  test.describe.configure({ mode: 'default' });
  managementChecks('admin', { admin: true });
});

test.describe('accessibility as a company head', () => {
  test.describe.configure({ mode: 'default' });
  managementChecks('companyHead', { admin: false });
});

test.describe('accessibility of API tokens', () => {
  test('the page, its create modal, the token shown once and the revoke modal', async ({ browser }) => {
    const page = await signedInPage(browser, USERS.employee.email);
    try {
      await openScreen(page, '/dashboard/profile/tokens', 'API Tokens');
      await checkModal(page, 'API tokens: create', page.getByRole('button', { name: 'Create token' }));
      await page.getByRole('button', { name: 'Create token' }).click();
      const form = page.getByRole('dialog', { name: 'Create API token' });
      await form.getByLabel('Name').fill('Axe check');
      await form.getByRole('checkbox').first().check();
      await form.getByRole('button', { name: 'Create', exact: true }).click();
      await expect(page.getByRole('dialog', { name: 'Your new API token' })).toBeVisible();
      await expectAccessible(page, 'API tokens: shown once', '.mantine-Modal-content');
      await page.getByRole('button', { name: 'Done' }).click();
      await expect(page.getByRole('table', { name: 'API tokens' }).getByText('Axe check')).toBeVisible();
      await expectAccessible(page, 'API tokens');
      await checkModal(page, 'API tokens: revoke', page.getByRole('button', { name: 'Revoke Axe check' }));
    } finally {
      await page.context().close();
    }
  });
});

const LICENSE = '/dashboard/license';
const NORTHWIND = USERS.companyHead.company;

/** The License Management screens with their dialogs; the provider's own screens only for the admin. */
function licenseChecks(who: 'admin' | 'companyHead') {
  const admin = who === 'admin';
  let page: Page;
  test.beforeAll(async ({ browser }) => {
    page = await signedInPage(browser, USERS[who].email);
  });
  test.afterAll(async () => {
    await page.context().close();
  });

  const licenses = () => page.getByRole('table', { name: 'Licenses' });
  const dispatch = () => licenses().getByRole('row').filter({ hasText: 'Dispatch robots' });

  /** Northwind's page: from the companies table for the admin, from the sidebar's 'Licenses' for its head. */
  async function openNorthwind() {
    if (admin) {
      await openScreen(page, `${LICENSE}/companies`, 'Companies');
      await page.getByRole('link', { name: NORTHWIND, exact: true }).click();
    } else {
      // By the link's address rather than a click: the pointer left over the entry would be checked too.
      await page.goto('/dashboard');
      const entry = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Licenses' });
      await page.goto((await entry.getAttribute('href')) ?? '');
    }
    await expect(page.getByRole('heading', { level: 1, name: NORTHWIND })).toBeVisible();
    await expect(dispatch()).toBeVisible();
  }

  if (admin) {
    test('Companies with its create and edit modals', async () => {
      await openScreen(page, `${LICENSE}/companies`, 'Companies');
      await expect(page.getByRole('table', { name: 'Companies' }).locator('tbody tr').first()).toBeVisible();
      await expectAccessible(page, 'Companies');
      await checkModal(page, 'Companies: create', page.getByRole('button', { name: 'Create company' }));
      await checkModal(page, 'Companies: edit', firstEdit(page));
    });
  }

  test(`a company page with its licences${admin ? ', and the add and renew modals' : ''}`, async () => {
    await openNorthwind();
    await expectAccessible(page, 'Company page');
    if (admin) {
      await checkModal(page, 'Company page: add license', page.getByRole('button', { name: 'Add license' }));
      await checkModal(page, 'Company page: renew', dispatch().getByRole('button', { name: 'Renew Dispatch robots' }));
    }
  });

  test("a licence's keys, and the generate and generate-from-file modals", async () => {
    await openNorthwind();
    await dispatch().getByRole('link', { name: 'View keys of Dispatch robots' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'License Keys' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'License keys' }).locator('tbody tr').first()).toBeVisible();
    await expectAccessible(page, 'License keys');
    for (const item of ['Generate key', 'Generate from file']) {
      await page.getByRole('button', { name: 'Generate keys', exact: true }).click();
      await checkModal(page, `License keys: ${item}`, page.getByRole('menuitem', { name: item }));
    }
  });

  if (admin) {
    test('Accounts with the add solo account and delete modals', async () => {
      await openScreen(page, `${LICENSE}/accounts`, 'Accounts');
      const table = page.getByRole('table', { name: 'Accounts' });
      await expect(table.locator('tbody tr')).toHaveCount(10);
      await expectAccessible(page, 'Accounts');
      await checkModal(page, 'Accounts: add solo account', page.getByRole('button', { name: 'Add solo account' }));
      await checkModal(page, 'Accounts: delete', table.getByRole('button', { name: /^Delete / }).first());
    });
  }
}

test.describe('accessibility of License Management as the provider admin', () => {
  test.describe.configure({ mode: 'default' });
  licenseChecks('admin');
});

test.describe('accessibility of License Management as a company head', () => {
  test.describe.configure({ mode: 'default' });
  licenseChecks('companyHead');
});

const WORKFLOWS = '/dashboard/workflow/list';

/** The Workflows list with its context menu and every dialog of the area, as a company head. */
test.describe('accessibility of Workflows', () => {
  test.describe.configure({ mode: 'default' });
  let page: Page;
  test.beforeAll(async ({ browser }) => {
    page = await signedInPage(browser, USERS.companyHead.email);
  });
  test.afterAll(async () => {
    await page.context().close();
  });

  const table = () => page.getByRole('table', { name: 'Workflows and directories' });
  const row = (text: string) => table().getByRole('row').filter({ hasText: text });

  /** Right-clicks a row, checks the menu while open, and picks `item` (or closes it). */
  async function fromMenu(screen: string, target: string, item?: string) {
    await row(target).click({ button: 'right' });
    await expect(page.getByRole('menu')).toBeVisible();
    if (!item) {
      await expectAccessible(page, screen);
      await page.keyboard.press('Escape');
      // Gone, not closing: the next test's menu must be the only one (seen in CI: both at once).
      await expect(page.getByRole('menu')).toHaveCount(0);
      return;
    }
    await checkModal(page, screen, page.getByRole('menuitem', { name: item }));
  }

  test('the list, a selection and its context menu', async () => {
    await page.goto(`${WORKFLOWS}?path=${encodeURIComponent('Workflows/Finance')}`);
    await expect(row('Invoices')).toBeVisible();
    await expectAccessible(page, 'Workflows');
    await row('Invoices').click();
    await row('Payroll').click({ modifiers: ['Control'] });
    await fromMenu('Workflows: context menu of two items', 'Payroll');
  });

  test('the create menu and its two dialogs', async () => {
    for (const item of ['Create workflow', 'Create directory']) {
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await checkModal(page, `Workflows: ${item}`, page.getByRole('menuitem', { name: item }));
    }
  });

  test('the dialogs of one directory', async () => {
    await row('Invoices').click();
    await fromMenu('Workflows: rename directory', 'Invoices', 'Rename');
    await fromMenu('Workflows: delete directory', 'Invoices', 'Delete');
    await fromMenu('Workflows: download directory', 'Invoices', 'Download as zip');
  });

  test('the dialogs of several items', async () => {
    await row('Invoices').click();
    await row('Payroll').click({ modifiers: ['Shift'] });
    await fromMenu('Workflows: rename several', 'Payroll', 'Rename selected');
    await fromMenu('Workflows: delete several', 'Payroll', 'Delete selected');
    await fromMenu('Workflows: download several', 'Payroll', 'Download selected');
  });

  test('the dialogs of a workflow', async () => {
    await row('Invoices').dblclick();
    await expect(row('Invoice intake.rax')).toBeVisible();
    await fromMenu('Workflows: update workflow with its versions', 'Invoice intake.rax', 'Edit');
    await fromMenu('Workflows: download workflow', 'Invoice intake.rax', 'Download');
    await fromMenu('Workflows: delete workflow', 'Invoice intake.rax', 'Delete');
  });
});

/**
 * Workflow Events with a connected agent running one workflow and queuing another: the cards, the
 * view-all modal's two tabs and a command's confirmation, as a company head.
 */
/**
 * Pauses the endless animations (a running item's spinner): axe.ts's `settled` waits for every
 * animation to end, which a spinner never does. Called again after each step that adds one.
 */
async function pauseSpinners(page: Page) {
  await page.evaluate(() => {
    for (const animation of document.getAnimations()) {
      if (animation.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY) animation.pause();
    }
  });
}

test.describe('accessibility of Workflow Events', () => {
  test.describe.configure({ mode: 'default' });
  let page: Page;
  let agent: TestAgent | undefined;
  test.beforeAll(async ({ browser, server }) => {
    const baseURL = server.url;
    const key = await demoAgentKey(baseURL, NORTHWIND);
    // Speed 1: the demo's 90 s workflow runs through the whole check.
    agent = await startTestAgent(baseURL, key, { speed: 1 });
    const workflow = agentWorkflowId(agent, 'Post invoices to SAP');
    agent.execute(workflow);
    agent.execute(workflow);
    page = await signedInPage(browser, USERS.companyHead.email);
  });
  test.afterAll(async () => {
    await agent?.stop();
    await page?.context().close();
  });

  test('the agent cards, the view-all modal with both tabs, and a confirmation', async () => {
    await openScreen(page, '/dashboard/workflow/events', 'Workflow Events');
    await expect(page.getByTestId('live-status')).toHaveText('Live');
    const card = page.getByTestId('agent-card');
    await expect(card.getByTestId('queue-item')).toHaveCount(2);
    await expect(card.getByTestId('queue-item').first()).toHaveAttribute('data-status', 'running');
    await pauseSpinners(page);
    await expectAccessible(page, 'Workflow Events');

    await card.getByRole('button', { name: 'View all' }).click();
    const modal = page.getByRole('dialog');
    await expect(modal.getByRole('table', { name: 'Workflow List' }).locator('tbody tr').first()).toBeVisible();
    await pauseSpinners(page);
    await expectAccessible(page, 'Workflow Events: view all, Workflow List', '.mantine-Modal-content');
    await modal.getByRole('tab', { name: /Active/ }).click();
    await expect(modal.getByRole('table', { name: 'Active' }).locator('tbody tr')).toHaveCount(2);
    await pauseSpinners(page);
    await expectAccessible(page, 'Workflow Events: view all, Active', '.mantine-Modal-content');

    await modal.getByRole('button', { name: 'Unqueue' }).click();
    const confirm = page.getByRole('dialog', { name: 'Unqueue workflow' });
    await expect(confirm).toBeVisible();
    await pauseSpinners(page);
    await expectAccessible(page, 'Workflow Events: unqueue confirmation', '.mantine-Modal-content');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('the connection states: reconnecting, and refused with its alert', async () => {
    // The browser's side of the channel, played here: first a socket that closes at once, then a
    // server that refuses the CONNECT. (Last in this group: the route stays for the page's life.)
    let refuse = false;
    await page.routeWebSocket(/\/api\/live$/, (ws) => {
      if (!refuse) return ws.close();
      ws.onMessage((frame) => {
        if (String(frame).startsWith('CONNECT')) ws.send('ERROR\nmessage:ERROR_FORBIDDEN\n\n\u0000');
      });
    });
    await openScreen(page, '/dashboard/workflow/events', 'Workflow Events');
    const status = page.getByTestId('live-status');
    await expect(status).toHaveAttribute('data-status', 'reconnecting');
    await expectAccessible(page, 'Workflow Events: reconnecting');
    refuse = true;
    await page.reload();
    await expect(status).toHaveAttribute('data-status', 'refused');
    await expect(page.getByTestId('live-error')).toBeVisible();
    await expectAccessible(page, 'Workflow Events: refused');
  });
});

/** The agent report (chart and its table view) and the two list pages with their details modal, as a company head. */
test.describe('accessibility of Reports', () => {
  test.describe.configure({ mode: 'default' });
  let page: Page;
  test.beforeAll(async ({ browser }) => {
    page = await signedInPage(browser, USERS.companyHead.email);
  });
  test.afterAll(async () => {
    await page.context().close();
  });

  test('the agent report, with its chart and as a table', async () => {
    await openScreen(page, '/dashboard/report/agent', 'Agent Report');
    await expect(page.getByTestId('tile-completed-value')).toHaveText(/^\d+$/);
    // The chart once its chunk is in (or, early on the first of a month, the text saying it is empty).
    await expect(page.getByRole('application').or(page.getByText(/^No executed time this month yet/))).toBeVisible();
    await expect(
      page.getByRole('table', { name: 'Most Used Workflows' }).or(page.getByText(/^No runs this month/)),
    ).toBeVisible();
    await expectAccessible(page, 'Agent Report');
    await page.getByText('Table', { exact: true }).click();
    await expect(page.getByRole('table', { name: /^Executed minutes per day of / })).toBeVisible();
    await expectAccessible(page, 'Agent Report: executed minutes as a table');
  });

  for (const [path, heading] of [
    ['/dashboard/workflow/errors', 'Error Logs'],
    ['/dashboard/workflow/logs', 'Execution Logs'],
  ] as const) {
    test(`${heading} with a run's details`, async () => {
      await openScreen(page, `${path}?range=thisMonth`, heading);
      const rows = page.getByRole('table', { name: heading }).locator('tbody tr');
      await expect(rows.first().locator('td:nth-child(2)')).toBeVisible();
      await expectAccessible(page, heading);
      await rows.first().click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByTestId('execution-details')).toBeVisible();
      await expectAccessible(page, `${heading}: details`, '.mantine-Modal-content');
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
    });
  }
});
