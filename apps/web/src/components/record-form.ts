import { LIMITS } from '@opsdeck/contract/limits';
import { useMemo } from 'react';
import type { FieldValues, Path, Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isAdmin } from '../lib/authorities';
import { doneText } from '../lib/notify';
import { useViewer } from '../lib/profile-context';
import { truncateText } from '../lib/truncate';
import type { Tenant } from '../resources/tenant';
import { useCompanyScope, useNewRecordCompany } from './company-select';
import { useModalForm } from './form-modal';

/**
 * A record that a dialog creates and edits: of one company (a department, a status, a task), or
 * of the provider's (an activity), which has no tenant and whose form has no company field.
 */
interface CompanyRecord {
  id: number;
  name: string;
  tenantId?: string;
}

interface Save<Body> {
  mutateAsync: (variables: { body: Body; tenant?: Tenant }) => Promise<unknown>;
}
interface Update<Body> {
  mutateAsync: (variables: { id: number; body: Body; tenant?: Tenant }) => Promise<unknown>;
}

interface RecordFormOptions<Row extends CompanyRecord, TValues extends FieldValues, TOutput, Body> {
  /** The area whose strings title the dialog: `<area>.createTitle`, `<area>.editTitle` ({{name}}). */
  area: string;
  /** The record to edit (loaded fresh); none to create one. */
  record: Row | undefined;
  opened: boolean;
  resolver: Resolver<TValues, unknown, TOutput>;
  /** The form's values for the record, and for a new one in the given company. */
  toForm: (record: Row) => TValues;
  empty: (company: string | null) => TValues;
  toBody: (values: TOutput) => Body;
  create: Save<Body>;
  update: Update<Body>;
  onReset?: () => void;
}

/**
 * The state of a company record's create and edit dialog, the same in every area: the form reset
 * on each opening, the company it acts on (an admin picks it in the form's `company` field; anyone
 * else acts on their own), and the save — a create in the chosen company, an update in the record's
 * own. `modal` spreads on FormModal.
 */
export function useRecordForm<
  Row extends CompanyRecord,
  TValues extends FieldValues & { company?: string | null },
  TOutput extends { name: string; company?: string | null },
  Body,
>({
  area,
  record,
  opened,
  resolver,
  toForm,
  empty,
  toBody,
  create,
  update,
  onReset,
}: RecordFormOptions<Row, TValues, TOutput, Body>) {
  const { t } = useTranslation();
  const admin = isAdmin(useViewer());
  const newCompany = useNewRecordCompany();
  const initial = useMemo(() => (record ? toForm(record) : empty(newCompany)), [record, newCompany, toForm, empty]);
  const form = useModalForm<TValues, TOutput>({ opened, initial, resolver, onReset });
  const { tenant, ready } = useCompanyScope(form.watch('company' as Path<TValues>) ?? null, opened);

  const onSubmit = async (values: TOutput) => {
    const body = toBody(values);
    if (record) await update.mutateAsync({ id: record.id, body, tenant: record.tenantId });
    else await create.mutateAsync({ body, ...(admin ? { tenant: values.company ?? undefined } : {}) });
  };

  return {
    form,
    admin,
    editing: record !== undefined,
    /** The company the dialog's lists are read for, and whether one is chosen yet. */
    tenant,
    ready,
    modal: {
      opened,
      form,
      onSubmit,
      title: record
        ? t(`${area}.editTitle`, { name: truncateText(record.name, LIMITS.truncate.modalName) })
        : t(`${area}.createTitle`),
      success: (values: TOutput) => doneText(record ? 'updated' : 'added', values.name),
    },
  };
}
