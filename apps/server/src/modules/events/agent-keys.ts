import { timingSafeEqual } from 'node:crypto';
import type { ErrorKey } from '@opsdeck/contract/errors';
import { CONNECT_HEADERS } from '@opsdeck/contract/live';
import { keyDigest, normalizeKey, partialKey } from '@opsdeck/licensing/keys';
import { normalizeMac } from '@opsdeck/licensing/registration';
import type { Executor, Tx } from '../../db/client';
import type { AuditWriter } from '../../platform/audit';
import { forbidden, unauthorized } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { EVERY_TENANT, oneTenant } from '../../platform/tenancy';
import { type AgentKeyRow, claimMacAddress, findAgentKey } from './queries';

/**
 * An agent as its key and machine identify it, after every check of its CONNECT
 * (docs/live-channel.md, "Agents").
 */
export type AgentIdentity<K extends AgentKeyRow = AgentKeyRow> = {
  key: K;
  keyDigest: string;
  macAddress: string;
  hostname: string;
};

export type AgentHeaders = (name: string) => string | undefined;

export type AgentKeyOptions = {
  db: Executor;
  appKeys: ReadonlySet<string>;
  /** Undefined: no agent secret configured (a server with DATABASE_URL and no AGENT_SECRET); every agent is refused. */
  agentSecret: string | undefined;
  /**
   * Told that a generated key took its machine's MAC address: the accounts list shows it and
   * finds the key by it, so its kept counts of a MAC search must hear of it as of any other edit.
   */
  events: Pick<EventBus, 'publish'>;
  /** Writes the record of the claim, in its transaction, with the agent as its actor (docs/audit.md). */
  audit?: AuditWriter;
};

function sameSecret(given: string | undefined, expected: string | undefined): boolean {
  if (!given || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Why a key may not be used now, as the error key the agent is told (null: it may). Checked at
 * CONNECT, for each command sent to the agent, and again whenever its licence or key changes.
 */
export function keyRefusal(key: AgentKeyRow | undefined, now = Date.now()): ErrorKey | null {
  if (!key || key.archived) return 'ERROR_LICENSE_KEY_INVALID';
  if (key.keyInvalidatedAt !== null) return 'ERROR_LICENSE_KEY_INVALIDATED';
  if (key.licenseInvalidatedAt !== null) return 'ERROR_LICENSE_INVALIDATED';
  if (key.expirationDate <= now) return 'ERROR_LICENSE_EXPIRED_KEY';
  return null;
}

/**
 * The agent's CONNECT (and its file downloads, which carry the same headers): app key, the
 * installation's agent secret, a valid key of a valid licence, and a machine of that key. A
 * generated key (no MAC address yet) takes this machine's.
 */
export async function identifyAgent<K extends AgentKeyRow>(
  options: AgentKeyOptions,
  header: AgentHeaders,
  /** How the key is read by its digest: `findAgentKey`, or a read that brings what the caller needs besides. */
  find: (keyDigest: string) => Promise<K | undefined>,
  /** Where the agent connects from, for the audit record of a machine it registers. */
  address: string | null = null,
): Promise<AgentIdentity<K>> {
  const appKey = header(CONNECT_HEADERS.appKey);
  if (!appKey || !options.appKeys.has(appKey)) throw unauthorized('ERROR_APP_KEY_INVALID');
  if (!sameSecret(header(CONNECT_HEADERS.secret), options.agentSecret))
    throw unauthorized('ERROR_AGENT_SECRET_INVALID');

  const normalized = normalizeKey(header(CONNECT_HEADERS.licenseKey) ?? '');
  if (!normalized) throw unauthorized('ERROR_LICENSE_KEY_INVALID');
  const digest = keyDigest(normalized);
  const key = await find(digest);
  const refusal = keyRefusal(key);
  if (refusal || !key) throw unauthorized(refusal ?? 'ERROR_LICENSE_KEY_INVALID');

  const macAddress = normalizeMac(header(CONNECT_HEADERS.macAddress) ?? '');
  if (!macAddress) throw forbidden('ERROR_AGENT_MAC_ADDRESS_INVALID');
  const hostname = (header(CONNECT_HEADERS.hostname) ?? '').trim().slice(0, 255);
  if (key.macAddresses.length === 0) {
    const claim = async (tx: Executor) => {
      // The key's own company (a solo key has none: the provider's).
      const scope = key.tenantId === null ? EVERY_TENANT : oneTenant(key.tenantId);
      if (!(await claimMacAddress(tx, scope, key.accountId, macAddress, hostname))) return false;
      await options.audit?.(tx as Tx, [
        {
          at: Date.now(),
          action: 'account.bind_machine',
          entityType: 'account',
          entityId: String(key.accountId),
          entityName: partialKey(normalized),
          tenantId: key.tenantId,
          actor: { type: 'agent', id: key.accountId, name: partialKey(normalized) },
          changes: [
            { field: 'macAddress', before: null, after: macAddress },
            { field: 'hostname', before: null, after: hostname || null },
          ],
          address,
          userAgent: null,
        },
      ]);
      return true;
    };
    if (!(await options.db.transaction(claim))) {
      // Another machine claimed it between our read and our write.
      const claimed = await findAgentKey(options.db, digest);
      if (!claimed?.macAddresses.includes(macAddress)) throw forbidden('ERROR_AGENT_MAC_ADDRESS_INVALID');
    } else {
      options.events.publish({ resource: 'accounts', kind: 'updated', ids: [key.accountId], tenantId: key.tenantId });
    }
    key.macAddresses = [macAddress];
  } else if (!key.macAddresses.includes(macAddress)) {
    throw forbidden('ERROR_AGENT_MAC_ADDRESS_INVALID');
  }
  return { key, keyDigest: digest, macAddress, hostname };
}
