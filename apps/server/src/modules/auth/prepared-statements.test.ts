import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresTestDatabase, openPreparedDatabase } from '../../../test/database';
import { createAgentKey, createCompany, createUser } from '../../../test/factories';
import { quietLog } from '../../../test/redis';
import type { Config } from '../../config';
import { type Database, openDatabase, selectRows } from '../../db/client';
import { createLocalEventBus } from '../../platform/events';
import type { Mailer } from '../../platform/mail';
import { prepareAgentStatements } from '../events/queries';
import { createAuthService } from './service';

// On PostgreSQL whichever TEST_DB runs: prepared statements are a PostgreSQL connection's.
let owner: Database & { url: string };
// One connection, so that pg_prepared_statements (a connection's own view) shows what every
// request ran.
let single: Database;
let config: Config;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ database: owner, config, close } = await openPreparedDatabase(openPostgresTestDatabase));
  single = await openDatabase({ kind: 'postgres', url: owner.url, poolSize: 1 });
});
afterAll(async () => {
  await single.close();
  await close();
});

const mailer: Mailer = { send: async () => {}, describe: () => 'nowhere' };

describe('the statements every request runs', () => {
  it('are prepared once on a connection and executed from then on', async () => {
    const auth = createAuthService({
      db: single.db,
      config,
      mailer,
      log: quietLog() as unknown as FastifyBaseLogger,
      events: createLocalEventBus(),
    });
    const company = await createCompany(owner.db);
    const user = await createUser(owner.db, { company });
    // Each new session is a cache miss: the caller is read from the database every time.
    const tokens = [];
    for (let i = 0; i < 5; i += 1) tokens.push((await auth.login(user.email, user.password, '127.0.0.1')).token);
    for (const token of tokens) expect((await auth.resolveCaller(token))?.userId).toBe(user.id);
    expect(await auth.resolveTenant(company.tenantId)).toBe(company.id);
    expect(await auth.resolveTenant('00000000-0000-4000-8000-000000000000')).toBeNull();

    const prepared = await selectRows<{ name: string; runs: number }>(
      single.db,
      sql`select name, (generic_plans + custom_plans)::int as runs from pg_prepared_statements where name like 'opsdeck_%' order by name`,
    );
    expect(prepared).toEqual([
      { name: 'opsdeck_caller_by_session_v1', runs: 5 },
      { name: 'opsdeck_company_by_tenant_v1', runs: 2 },
    ]);
  });
});

describe('the statement every agent connect runs', () => {
  it('is prepared once on a connection and executed from then on', async () => {
    const company = await createCompany(owner.db);
    const { accountId } = await createAgentKey(owner.db, company);
    const [row] = await selectRows<{ digest: string }>(
      owner.db,
      sql`select key_digest as digest from accounts where id = ${accountId}`,
    );
    const digest = row!.digest;
    const statements = prepareAgentStatements(single.db);
    for (let i = 0; i < 3; i += 1) expect((await statements.connectingAgentKey(digest))?.accountId).toBe(accountId);
    expect(await statements.connectingAgentKey('no such digest')).toBeUndefined();

    const prepared = await selectRows<{ runs: number }>(
      single.db,
      sql`select (generic_plans + custom_plans)::int as runs from pg_prepared_statements where name = 'opsdeck_connecting_agent_key_v1'`,
    );
    expect(prepared).toEqual([{ runs: 4 }]);
  });
});
