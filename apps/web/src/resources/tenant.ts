/**
 * Which company a read or write acts on. undefined: the stored tenant (the pages' lists, and a
 * company user's own); a tenant id: that company's (an admin's company selector in a form, spec
 * section 4). Query keys carry it as 'current' or the id, so each company's list is cached apart.
 */
export type Tenant = string | undefined;

export const tenantKey = (tenant: Tenant) => tenant ?? 'current';

/** The api-client option that sends the tenant header of `tenant` (none: the stored one). */
export const tenantOption = (tenant: Tenant) => (tenant === undefined ? {} : { tenantId: tenant });
