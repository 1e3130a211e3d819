import { zodResolver } from '@hookform/resolvers/zod';
import { FileInput, Progress, Stack, Text, TextInput } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { WorkflowDetail } from '@opsdeck/contract/workflows';
import { IconFileCode } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type UseFormReturn, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FileDropTarget } from '../../components/file-drop-target';
import { FormModal, useModalForm } from '../../components/form-modal';
import { TextareaField, TextField } from '../../components/form-parts';
import { errorText } from '../../lib/i18n';
import { doneText } from '../../lib/notify';
import { truncateText } from '../../lib/truncate';
import { type Place, useCreateWorkflow, useUpdateWorkflow, WORKFLOW_FIELD_KEYS, WORKFLOW_SAVE_FAILURE } from './api';
import { readManifest } from './rax-manifest';
import { WorkflowDetails } from './workflow-details';
import {
  emptyWorkflowForm,
  nameOfFile,
  type WorkflowFormInput,
  type WorkflowFormValues,
  workflowFormSchema,
  workflowToForm,
} from './workflow-form-schema';

const createResolver = zodResolver(workflowFormSchema(true));
const updateResolver = zodResolver(workflowFormSchema(false));

type WorkflowForm = UseFormReturn<WorkflowFormInput, unknown, WorkflowFormValues>;

interface WorkflowFileFieldProps {
  form: WorkflowForm;
  /** Required to create; on an update a file makes a new version. */
  required: boolean;
}

/**
 * The `.rax` file, chosen or dropped on the field (or on the page). A workflow with no name yet
 * takes the file's (spec section 2), without `.rax`; a new one then the manifest's name once read,
 * unless the user has typed one meanwhile, and an empty description the manifest's
 * (docs/workflows.md).
 */
function WorkflowFileField({ form, required }: WorkflowFileFieldProps) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control: form.control, name: 'file' });
  // The name this field put in (not typed by the user, so another file may replace it).
  const filled = useRef<string | null>(null);
  const fill = useCallback(
    (file: File) => {
      const set = (name: 'name' | 'description', value: string) =>
        form.setValue(name, value, { shouldValidate: true, shouldDirty: true });
      const setName = (value: string) => {
        filled.current = value;
        set('name', value);
      };
      const untyped = () => !form.getValues('name').trim() || form.getValues('name') === filled.current;
      if (!form.getValues('name').trim()) setName(nameOfFile(file));
      if (!required) return;
      void readManifest(file).then((manifest) => {
        // Another file chosen meanwhile, or nothing to take.
        if (!manifest || form.getValues('file') !== file) return;
        if (manifest.name && untyped()) setName(manifest.name);
        if (manifest.description && !form.getValues('description')?.trim()) set('description', manifest.description);
      });
    },
    [form, required],
  );
  // A file dropped on the page opens the form with it.
  useEffect(() => {
    const initial = form.getValues('file');
    if (initial) fill(initial);
  }, [form, fill]);
  const choose = (file: File | null) => {
    field.onChange(file);
    if (file) fill(file);
  };
  return (
    <FileDropTarget onFile={choose} label={t('workflows.form.dropFile')}>
      <FileInput
        label={t(required ? 'workflows.form.file' : 'workflows.form.newFile')}
        placeholder={t('workflows.form.filePlaceholder')}
        description={t(required ? 'workflows.form.fileHelp' : 'workflows.form.newFileHelp')}
        required={required}
        clearable
        accept=".rax"
        leftSection={<IconFileCode size={16} aria-hidden="true" />}
        value={field.value}
        onChange={choose}
        onBlur={field.onBlur}
        error={errorText(fieldState.error?.message)}
        clearButtonProps={{ 'aria-label': t('workflows.form.clearFile') }}
      />
    </FileDropTarget>
  );
}

/** How much of the file has gone up, while a save sends one. */
function UploadProgress({ sent }: { sent: number }) {
  const { t } = useTranslation();
  const percent = Math.round(sent * 100);
  return (
    <Stack gap={4}>
      <Text size="sm" c="dimmed" aria-live="polite">
        {percent < 100 ? t('workflows.form.uploading', { percent }) : t('workflows.form.processing')}
      </Text>
      <Progress value={percent} aria-label={t('workflows.form.uploadProgress')} animated={percent < 100} />
    </Stack>
  );
}

interface WorkflowFormModalProps {
  /** The directory the workflow is (or goes) in, and its page's tenant. */
  place: Place;
  /** The workflow to update, loaded fresh; none to create one. */
  workflow?: WorkflowDetail;
  /** A file dropped on the page, to create a workflow of. */
  file?: File;
  onClose: () => void;
}

/**
 * Spec section 2, create and update workflow: name, description, the directory (read-only) and
 * the `.rax` file, sent as form data with the upload's progress shown; an update lists the
 * workflow's versions and the activities its file uses below the form. Field keys go on their
 * fields, and nothing typed is lost on a failure.
 */
export function WorkflowFormModal({ place, workflow, file, onClose }: WorkflowFormModalProps) {
  const { t } = useTranslation();
  const initial = useMemo<WorkflowFormInput>(() => {
    if (workflow) return workflowToForm(workflow);
    return file ? { ...emptyWorkflowForm, name: nameOfFile(file), file } : emptyWorkflowForm;
  }, [workflow, file]);
  const form = useModalForm({ opened: true, initial, resolver: workflow ? updateResolver : createResolver });
  const create = useCreateWorkflow();
  const update = useUpdateWorkflow();
  const [sent, setSent] = useState<number | null>(null);

  const onSubmit = async (values: WorkflowFormValues) => {
    setSent(values.file ? 0 : null);
    try {
      if (workflow) await update.mutateAsync({ id: workflow.id, place, fields: values, onProgress: setSent });
      else await create.mutateAsync({ place, fields: values, onProgress: setSent });
    } finally {
      setSent(null);
    }
  };

  return (
    <FormModal
      opened
      onClose={onClose}
      title={
        workflow
          ? t('workflows.form.editTitle', { name: truncateText(workflow.name, LIMITS.truncate.modalName) })
          : t('workflows.form.createTitle')
      }
      form={form}
      onSubmit={onSubmit}
      success={(values) => doneText(workflow ? 'updated' : 'added', values.name)}
      errorPlacement={{ keys: WORKFLOW_FIELD_KEYS }}
      failure={WORKFLOW_SAVE_FAILURE}
      itemName={workflow?.name}
      size={workflow ? 'xl' : 'lg'}
    >
      <TextField form={form} name="name" label={t('workflows.form.name')} required />
      <TextareaField
        form={form}
        name="description"
        label={t('workflows.form.description')}
        rows={3}
        resize="vertical"
      />
      <TextInput label={t('workflows.form.directory')} value={place.directory} readOnly variant="filled" />
      <WorkflowFileField form={form} required={!workflow} />
      {sent !== null && <UploadProgress sent={sent} />}
      {workflow && <WorkflowDetails workflow={workflow} tenantId={place.tenantId} />}
    </FormModal>
  );
}
