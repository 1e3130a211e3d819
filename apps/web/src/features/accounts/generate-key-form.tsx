import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, FileInput, Text } from '@mantine/core';
import type { GeneratedAccount } from '@opsdeck/contract/accounts';
import { IconFileText } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { type Control, type FieldValues, type Path, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormModal, useModalForm } from '../../components/form-modal';
import { nameOptions, SelectField } from '../../components/form-parts';
import { errorText } from '../../lib/i18n';

/** The server's API documentation (Swagger UI), which describes the registration file. */
const API_DOCS_PATH = '/api/docs';

import { departmentsQueryOptions } from '../../resources/departments';
import {
  KEY_GENERATION_FAILURE,
  type KeyScope,
  registrationFileErrors,
  useGenerateKey,
  useGenerateKeyFromFile,
} from './api';
import {
  emptyGenerateKeyForm,
  type GenerateKeyValues,
  generateFromFileSchema,
  generateKeySchema,
} from './key-form-schema';

const generateResolver = zodResolver(generateKeySchema);
const fromFileResolver = zodResolver(generateFromFileSchema);

interface GenerateKeyModalProps {
  /** From a machine's registration file, or a key alone. */
  withFile: boolean;
  scope: KeyScope;
  /** Closed; with the new key when one was made, for the one time it is shown. */
  onClose: (generated?: GeneratedAccount) => void;
}

/**
 * Spec sections 2, 5 and 8, Key generation: a department of the licence's company (and a `.dat`
 * registration file), then the key, whose full text only the caller sees (GeneratedKeyModal).
 */
export function GenerateKeyModal({ withFile, scope, onClose }: GenerateKeyModalProps) {
  const { t } = useTranslation();
  const form = useModalForm({
    opened: true,
    initial: emptyGenerateKeyForm,
    resolver: withFile ? fromFileResolver : generateResolver,
  });
  // The departments of the licence's company, whoever looks (an admin reads them in its tenant).
  const departments = useQuery(departmentsQueryOptions(scope.tenant));
  const generate = useGenerateKey();
  const fromFile = useGenerateKeyFromFile();
  // Held outside React state until the dialog closes: the key modal then opens in the same update.
  const generated = useRef<GeneratedAccount | undefined>(undefined);

  const onSubmit = async (values: { departmentId: string | null; file: File | null }) => {
    const department = Number(values.departmentId);
    generated.current =
      withFile && values.file
        ? await fromFile.mutateAsync({ scope, department, regFile: values.file })
        : await generate.mutateAsync({ scope, department });
  };

  return (
    <FormModal
      opened
      onClose={() => onClose(generated.current)}
      title={t(withFile ? 'accounts.keys.fromFileTitle' : 'accounts.keys.generateTitle')}
      form={form}
      onSubmit={onSubmit}
      success={() => t('accounts.keys.generatedToast')}
      errorPlacement={registrationFileErrors<GenerateKeyValues>('file')}
      failure={KEY_GENERATION_FAILURE}
      submitLabel={t('accounts.keys.generateSubmit')}
    >
      <SelectField
        control={form.control}
        name="departmentId"
        label={t('accounts.keys.department')}
        placeholder={t('accounts.keys.departmentPlaceholder')}
        required
        data={nameOptions(departments.data ?? [])}
      />
      {withFile && <RegistrationFileField control={form.control} name="file" />}
    </FormModal>
  );
}

/** A form's `.dat` registration file field, with where to get one. */
export function RegistrationFileField<TValues extends FieldValues>({
  control,
  name,
}: {
  control: Control<TValues>;
  name: Path<TValues>;
}) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  return (
    <FileInput
      label={t('accounts.keys.registrationFile')}
      placeholder={t('accounts.keys.registrationFilePlaceholder')}
      required
      clearable
      accept=".dat"
      leftSection={<IconFileText size={16} aria-hidden="true" />}
      value={field.value}
      onChange={field.onChange}
      onBlur={field.onBlur}
      error={errorText(fieldState.error?.message)}
      description={<RegistrationFileHelp />}
    />
  );
}

/**
 * Where a registration file comes from (docs/licensing.md, Registration files): the agent's
 * installer writes it on the machine to license; its format is in the API documentation.
 */
function RegistrationFileHelp() {
  const { t } = useTranslation();
  return (
    <Text span inherit>
      {t('accounts.keys.registrationFileHelp')}{' '}
      <Anchor href={API_DOCS_PATH} target="_blank" rel="noopener" inherit>
        {t('accounts.keys.registrationFileDocs')}
      </Anchor>
    </Text>
  );
}
