import { zodResolver } from '@hookform/resolvers/zod';
import { List, Text } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { DirectoryItem } from '@opsdeck/contract/workflows';
import { useMemo } from 'react';
import type { Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormModal, useModalForm } from '../../components/form-modal';
import { TextField } from '../../components/form-parts';
import type { ErrorPlacement } from '../../lib/form-errors';
import { doneText } from '../../lib/notify';
import { truncateText } from '../../lib/truncate';
import {
  DIRECTORY_NAME_KEYS,
  DIRECTORY_SAVE_FAILURE,
  type Place,
  useCreateDirectory,
  useRenameDirectory,
  useRenameItems,
} from './api';
import { directoryNameSchema, renameDirectorySchema, renameItemsSchema } from './workflow-form-schema';

const createResolver = zodResolver(directoryNameSchema);
const renameResolver = zodResolver(renameDirectorySchema);
const renameItemsResolver = zodResolver(renameItemsSchema);

const EMPTY_NAME = { name: '' };
const EMPTY_NEW_NAME = { newFileName: '' };

/** Spec section 8: a name's keys go on the name field, whether or not the server names the field. */
function namePlacement<T extends Record<string, string>>(field: Path<T>): ErrorPlacement<T> {
  return { keys: Object.fromEntries(DIRECTORY_NAME_KEYS.map((key) => [key, field])) };
}

const cut = (name: string) => truncateText(name, LIMITS.truncate.modalName);

/** A new directory in the place's directory (POST /api/directory/create). */
export function CreateDirectoryModal({ place, onClose }: { place: Place; onClose: () => void }) {
  const { t } = useTranslation();
  const form = useModalForm({ opened: true, initial: EMPTY_NAME, resolver: createResolver });
  const create = useCreateDirectory();
  return (
    <FormModal
      opened
      onClose={onClose}
      title={t('workflows.directory.createTitle')}
      form={form}
      onSubmit={({ name }) => create.mutateAsync({ place, name })}
      success={({ name }) => doneText('added', name)}
      errorPlacement={namePlacement<{ name: string }>('name')}
      failure={DIRECTORY_SAVE_FAILURE}
      submitLabel={t('workflows.directory.create')}
    >
      <Text size="sm" c="dimmed">
        {t('workflows.directory.in', { path: place.directory })}
      </Text>
      <TextField form={form} name="name" label={t('workflows.directory.name')} required />
    </FormModal>
  );
}

/** A directory's new name (POST /api/directory/update); the same name closes without a call (spec section 4). */
export function RenameDirectoryModal({
  place,
  directory,
  onClose,
}: {
  place: Place;
  directory: Pick<DirectoryItem, 'name'>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const initial = useMemo(() => ({ new: directory.name }), [directory.name]);
  const form = useModalForm({ opened: true, initial, resolver: renameResolver });
  const rename = useRenameDirectory();
  const unchanged = (name: string) => name === directory.name;
  return (
    <FormModal
      opened
      onClose={onClose}
      title={t('workflows.directory.renameTitle', { name: cut(directory.name) })}
      form={form}
      onSubmit={async (values) => {
        if (!unchanged(values.new)) await rename.mutateAsync({ place, current: directory.name, name: values.new });
      }}
      success={(values) => (unchanged(values.new) ? null : doneText('updated', values.new))}
      errorPlacement={namePlacement<{ new: string }>('new')}
      failure={DIRECTORY_SAVE_FAILURE}
      itemName={directory.name}
      submitLabel={t('workflows.directory.rename')}
    >
      <TextField form={form} name="new" label={t('workflows.directory.newName')} required />
    </FormModal>
  );
}

/**
 * Several items after one name (POST /api/directory/update/multiple): the server keeps the names
 * unique by numbering them, which the dialog explains before it is sent.
 */
export function RenameItemsModal({
  place,
  items,
  onClose,
}: {
  place: Place;
  items: readonly Pick<DirectoryItem, 'name' | 'fileName'>[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const form = useModalForm({ opened: true, initial: EMPTY_NEW_NAME, resolver: renameItemsResolver });
  const rename = useRenameItems();
  const typed = form.watch('newFileName').trim() || t('workflows.rename.example');
  return (
    <FormModal
      opened
      onClose={onClose}
      title={t('workflows.rename.title', { count: items.length })}
      form={form}
      onSubmit={({ newFileName }) =>
        rename.mutateAsync({ place, files: items.map((item) => item.fileName), newFileName })
      }
      success={() => t('workflows.rename.done', { count: items.length })}
      errorPlacement={namePlacement<{ newFileName: string }>('newFileName')}
      failure={DIRECTORY_SAVE_FAILURE}
      submitLabel={t('workflows.rename.submit')}
    >
      <List size="sm" spacing={2} aria-label={t('workflows.rename.itemsLabel')}>
        {items.map((item) => (
          <List.Item key={item.fileName}>{cut(item.name)}</List.Item>
        ))}
      </List>
      <TextField
        form={form}
        name="newFileName"
        label={t('workflows.rename.newName')}
        description={t('workflows.rename.numbering', { name: cut(typed) })}
        required
      />
    </FormModal>
  );
}
