import { Button, Tooltip } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RequestOptions } from '../lib/api-client';
import { downloadCsv } from '../lib/csv-download';
import { notifyError } from '../lib/notify';

interface CsvDownloadButtonProps {
  /** The list's API path under /api, the one its table pages through. */
  path: string;
  /** The table's filter exactly as its page call sends it (page and size are dropped). */
  query: NonNullable<RequestOptions['query']>;
  /** The file's name when the server gives none. */
  fallbackName: string;
  disabled?: boolean;
}

/**
 * 'Download CSV' for a table: every row its filter matches, as the server writes it. A failure is
 * a toast with the error's text; the button shows it is busy meanwhile (a large export takes a while).
 */
export function CsvDownloadButton({ path, query, fallbackName, disabled = false }: CsvDownloadButtonProps) {
  const { t } = useTranslation();
  const [pending, setPending] = useState(false);
  const download = async () => {
    setPending(true);
    try {
      await downloadCsv(path, query, fallbackName);
    } catch (error) {
      notifyError(error);
    } finally {
      setPending(false);
    }
  };
  return (
    <Tooltip label={t('table.downloadCsvHelp')}>
      <Button
        variant="default"
        leftSection={<IconDownload size={16} aria-hidden="true" />}
        loading={pending}
        disabled={disabled}
        onClick={() => void download()}
      >
        {t('table.downloadCsv')}
      </Button>
    </Tooltip>
  );
}
