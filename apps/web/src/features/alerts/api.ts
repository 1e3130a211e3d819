import type { Alert, AlertRule, SaveAlertRule } from '@opsdeck/contract/alerts';
import type { Ok } from '@opsdeck/contract/auth';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';
import type { FailurePolicy } from '../../lib/failure-policy';
import { useResourceMutation } from '../../lib/resource-mutation';
import { restResource } from '../../resources/rest-resource';
import { type Tenant, tenantKey, tenantOption } from '../../resources/tenant';

/**
 * A company's alert rules and its open alerts (docs/alerts.md), for holders of MANAGE_ALERTS.
 * `tenant` is whose: undefined the stored tenant (a company user's own company), a company's
 * tenant id when the provider acts on it (its company page): sent as X-Tenant-Id.
 */
const rules = restResource<AlertRule>('alertRules', { list: '/alert-rule', one: '/alert-rule' });

export const alertRuleKeys = rules.keys;
export const alertRulesQueryOptions = rules.listOptions;

export const alertKeys = {
  all: ['alerts'] as const,
  open: (tenant: Tenant) => ['alerts', 'open', tenantKey(tenant)] as const,
};

/** GET /api/alert: the company's open alerts. */
export const openAlertsQueryOptions = (tenant?: Tenant) =>
  queryOptions({
    queryKey: alertKeys.open(tenant),
    queryFn: ({ signal }) => apiRequest<Alert[]>('/alert', { signal, ...tenantOption(tenant) }),
  });

/** A rule changed or deleted may raise or clear alerts: both lists reload. */
const touched = [alertRuleKeys.all, alertKeys.all];

/** POST /api/alert-rule. */
export const useCreateAlertRule = (tenant: Tenant) =>
  useResourceMutation(
    (body: SaveAlertRule) => apiRequest<AlertRule>('/alert-rule', { method: 'POST', body, ...tenantOption(tenant) }),
    touched,
  );

/** PUT /api/alert-rule/{id}. */
export const useUpdateAlertRule = (tenant: Tenant) =>
  useResourceMutation(
    ({ id, body }: { id: number; body: SaveAlertRule }) =>
      apiRequest<AlertRule>(`/alert-rule/${id}`, { method: 'PUT', body, ...tenantOption(tenant) }),
    touched,
  );

/** DELETE /api/alert-rule/{id}. */
export const useDeleteAlertRule = (tenant: Tenant) =>
  useResourceMutation(
    (id: number) => apiRequest<Ok>(`/alert-rule/${id}`, { method: 'DELETE', ...tenantOption(tenant) }),
    touched,
  );

/** Create: field keys on their fields; anything else (the limit of 50) under the form. */
export const CREATE_ALERT_RULE_FAILURE: FailurePolicy = { otherwise: 'form' };
/** Update: a rule deleted meanwhile toasts and closes; the rest under the form. */
export const UPDATE_ALERT_RULE_FAILURE: FailurePolicy = { toast: ['ERROR_ALERT_RULE_NOT_EXIST'], otherwise: 'form' };
/** Delete: a rule already gone toasts; anything else the general error. */
export const DELETE_ALERT_RULE_FAILURE: FailurePolicy = { toast: ['ERROR_ALERT_RULE_NOT_EXIST'], otherwise: 'general' };
