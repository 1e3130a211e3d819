import { describe, it } from 'vitest';
import { clusterUnavailableReason } from './postgres-cluster';

/** A CI run: CI set, as CI services set it (to anything but "false" or "0"). */
export const IN_CI = Boolean(process.env.CI) && !['false', '0'].includes(process.env.CI ?? '');

/**
 * `describe` for a suite that needs a private cluster (createPostgresCluster). Where one cannot be
 * made here, under CI (IN_CI) the suite fails, with one test that names what is missing: a suite
 * skipped there would pass by accident. Elsewhere it is skipped, with the reason in its name and
 * on stderr.
 */
export function describeOnCluster(name: string, body: () => void) {
  const reason = clusterUnavailableReason();
  if (!reason) return describe(name, body);
  if (IN_CI)
    return describe(name, () => {
      it('has a private PostgreSQL cluster to run on (required under CI)', () => {
        throw new Error(`"${name}" cannot run under CI: ${reason}`);
      });
    });
  console.warn(`"${name}" skipped: ${reason}`);
  return describe.skip(`${name} (skipped: ${reason})`, body);
}
