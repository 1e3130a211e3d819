import { zodResolver } from '@hookform/resolvers/zod';
import { Checkbox } from '@mantine/core';
import type { Activity } from '@opsdeck/contract/activities';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../components/form-modal';
import { TextField } from '../../components/form-parts';
import { useRecordForm } from '../../components/record-form';
import { activityFormSchema, activityToForm, emptyActivityForm, toSaveActivity } from './activity-form-schema';
import { CREATE_ACTIVITY_FAILURE, UPDATE_ACTIVITY_FAILURE, useCreateActivity, useUpdateActivity } from './api';

const resolver = zodResolver(activityFormSchema);

/** Create and edit an activity of the catalogue (spec sections 2 and 5): name, key, category, partial. */
export function ActivityFormModal({ onClose, activity }: { onClose: () => void; activity?: Activity }) {
  const { t } = useTranslation();
  const { form, editing, modal } = useRecordForm({
    area: 'activities',
    record: activity,
    opened: true,
    resolver,
    toForm: activityToForm,
    empty: emptyActivityForm,
    toBody: toSaveActivity,
    create: useCreateActivity(),
    update: useUpdateActivity(),
  });
  return (
    <FormModal
      {...modal}
      onClose={onClose}
      failure={editing ? UPDATE_ACTIVITY_FAILURE : CREATE_ACTIVITY_FAILURE}
      itemName={activity?.name}
    >
      <TextField form={form} name="name" label={t('activities.name')} required />
      <TextField form={form} name="key" label={t('activities.key')} description={t('activities.keyHint')} required />
      <TextField form={form} name="category" label={t('activities.category')} />
      <Checkbox
        label={t('activities.partial')}
        description={t('activities.partialHint')}
        {...form.register('partial')}
      />
    </FormModal>
  );
}
