import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CONSOLE_APP_KEY, HEADERS } from '@opsdeck/contract/http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app';
import { createCompany, type TestCompany } from '../../test/factories';
import { tokenWithEveryAuthority } from '../../test/sign-in';

// A CSV export of 100,000 rows (docs/csv-export.md) streams in constant memory: the server reads
// the users list a page at a time and writes each page out before reading further, so the heap
// (server and test share this process) grows by a few pages, not by the 100,000 rows.
// On PostgreSQL only (the suite's PostgreSQL run): seeding 100,000 users into PGlite's trigram
// indexes takes a minute of the test suite's budget, and the reader is the same on both.

const USERS = 100_000;
/** Holding the rows would take far more: 100,000 users as objects are well over 100 MB. */
const HEAP_GROWTH_MAX = 32 * 1024 * 1024;

/** V8's collector, reached without starting node with --expose-gc. */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe.runIf(process.env.TEST_DB === 'postgres')('a CSV export of 100,000 users', () => {
  let t: TestApp;
  let company: TestCompany;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    company = await createCompany(t.database.db, { name: 'Export Scale' });
    token = await tokenWithEveryAuthority(t, company);
    await t.database.db.execute(sql`
      insert into users (tenant_id, company_id, first_name, last_name, email_address, archived, created_at)
      select ${company.tenantId}::uuid, ${company.id},
        case when i % 1000 = 0 then '=cmd' else (array['Ana','Bo','Cy','Di','Ed'])[1 + i % 5] end,
        'Scale ' || i, 'export' || i || '@scale.test', false, ${Date.now()}
      from generate_series(1, ${USERS}) as i`);
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  it('streams every row while the heap stays flat', { timeout: 120_000 }, async () => {
    // What stays alive, not the garbage between collections: the heap measured right after a collection.
    const live = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const before = live();
    let peak = before;
    const response = await fetch(`${t.baseUrl}/api/user/get-user-list?format=csv`, {
      headers: { [HEADERS.appKey]: CONSOLE_APP_KEY, [HEADERS.authToken]: token },
    });
    expect(response.status).toBe(200);
    // Read as it comes and let each chunk go: the test holds only a count and the first lines.
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let records = 0;
    let head = '';
    let formulas = 0;
    let tail = '';
    let reads = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = tail + decoder.decode(value, { stream: true });
      const lines = text.split('\r\n');
      tail = lines.pop() ?? '';
      for (const line of lines) {
        if (records === 0) head = line;
        if (line.startsWith("'=cmd ")) formulas += 1;
        records += 1;
      }
      reads += 1;
      if (reads % 25 === 0) peak = Math.max(peak, live());
    }
    expect(tail).toBe('');
    expect(head).toBe('fullName,department,role,company,email');
    // The header, the 100,000 users and the one who signed in.
    expect(records).toBe(1 + USERS + 1);
    expect(formulas).toBe(USERS / 1000);
    expect(peak - before).toBeLessThan(HEAP_GROWTH_MAX);
  });
});
