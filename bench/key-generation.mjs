import { apiClient, onEachBackend, percentile, startServer, waitFor } from './lib.mjs';

const licenseCount = Number(process.env.BENCH_LICENSES ?? 5);
const keysPerLicense = Number(process.env.BENCH_KEYS ?? 100);
const callers = Number(process.env.BENCH_CALLERS ?? 20);
const port = 8295;
const base = `http://127.0.0.1:${port}/api`;
const { call, expect } = apiClient(base);
const admin = { email: 'admin@bench.test', password: 'bench-admin-password' };
const DAY = 86_400_000;

/** @type {string[]} */
const failures = [];

/**
 * @param {string} label
 * @param {Record<string, string>} env
 */
async function measureBackend(label, env) {
  const server = startServer({
    port,
    env: { ...env, DEMO: '0', LOG_LEVEL: 'warn', ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password },
  });
  try {
    await waitFor(`${base}/health`);
    const { token } = await expect(200, 'POST', '/login', {
      body: { username: admin.email, password: admin.password },
    });
    const company = await expect(201, 'POST', '/company', {
      token,
      body: {
        name: 'Keystone Bench Bank',
        industryType: 'banking',
        head: {
          firstName: 'Grace',
          lastName: 'Mensah',
          emailAddress: 'grace.mensah@keystone-bench.example',
          credential: { newPassword: 'bench-head-password', confirmPassword: 'bench-head-password' },
        },
      },
    });
    const department = await expect(201, 'POST', '/department', {
      token,
      tenantId: company.tenantId,
      body: { name: 'Licensing', headId: company.head.id },
    });
    console.log(
      `\n${label}: ${licenseCount} licences of ${keysPerLicense} keys, ${callers} concurrent callers ` +
        '(POST /api/account/generate)',
    );
    /** @type {number[]} */
    const allLatencies = [];
    let allKeys = 0;
    let allMs = 0;
    for (let round = 1; round <= licenseCount; round += 1) {
      const license = await expect(201, 'POST', '/license/company/add', {
        token,
        body: { companyId: company.id, licenseType: 'pro', label: `Bench ${round}` },
      });
      await expect(200, 'POST', '/license/company/update', {
        token,
        body: {
          companyId: company.id,
          licenseId: license.id,
          expirationDate: Date.now() + 30 * DAY,
          maxAccounts: keysPerLicense,
          label: '',
        },
      });
      const body = { company: company.id, license: license.id, department: department.id };
      let created = 0;
      let full = 0;
      /** @type {string[]} */
      const other = [];
      /** @type {number[]} */
      const latencies = [];
      const started = performance.now();
      await Promise.all(
        Array.from({ length: callers }, async () => {
          for (;;) {
            const sent = performance.now();
            const answer = await call('POST', '/account/generate', { token, body });
            if (answer.status === 201) {
              latencies.push(performance.now() - sent);
              created += 1;
              continue;
            }
            if (answer.status === 409 && JSON.stringify(answer.body).includes('ERROR_COMPANY_FULL_LICENSES')) full += 1;
            else other.push(`${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
            return;
          }
        }),
      );
      const elapsed = performance.now() - started;
      const listed = await expect(200, 'GET', `/account/list?company=${company.id}&license=${license.id}`, { token });
      const sorted = [...latencies].sort((a, b) => a - b);
      const ok = created === keysPerLicense && listed.length === keysPerLicense && other.length === 0;
      if (!ok) {
        failures.push(
          `${label}, licence ${round}: ${created} keys made (201), ${listed.length} listed, ` +
            `${full} answered 409 full, ${other.length} other answers${other.length ? ` (first: ${other[0]})` : ''}`,
        );
      }
      allLatencies.push(...latencies);
      allKeys += created;
      allMs += elapsed;
      console.log(
        `  licence ${round}: ${String(created).padStart(3)} × 201, ${String(full).padStart(2)} × 409 full, ` +
          `${String(listed.length).padStart(3)} listed   ${(created / (elapsed / 1000)).toFixed(1).padStart(6)} keys/s   ` +
          `p50 ${percentile(sorted, 50).toFixed(0).padStart(4)} ms   p99 ${percentile(sorted, 99).toFixed(0).padStart(4)} ms` +
          `${ok ? '' : '   FAILED'}`,
      );
    }
    const sorted = allLatencies.sort((a, b) => a - b);
    console.log(
      `  all: ${allKeys} keys in ${(allMs / 1000).toFixed(2)} s, ${(allKeys / (allMs / 1000)).toFixed(1)} keys/s, ` +
        `p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms`,
    );
  } finally {
    await server.stop();
  }
}

await onEachBackend('keys', measureBackend);

if (failures.length > 0) {
  console.error(`\n${failures.length} licence(s) went wrong:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
