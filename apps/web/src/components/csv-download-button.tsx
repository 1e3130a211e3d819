import { Button, Tooltip } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RequestOptions } from '../lib/api-client';
import { downloadCsv } from '../lib/csv-download';
import { notifyError } from '../lib/notify';

export interface CsvDownloadButtonProps {
  /** The list's API path under /api, the one its table pages through. */
  path: string;
  /** The table's filter exactly as its page call sends it (page and size are dropped). */
  query: NonNullable<RequestOptions['query']>;
  /** The file's name when the server gives none. */
  fallbackName: string;
  disabled?: boolean;
  /** The tooltip, when the file is not the filter's rows (a whole list: `table.downloadCsvWholeHelp`). */
  help?: string;
  /** A list read by POST (the workflows' view): its method and body, and the tenant it reads as. */
  request?: Pick<RequestOptions, 'method' | 'body' | 'tenantId'>;
}

/**
 * 'Download CSV' for a table: every row its filter matches, as the server writes it. A failure is
 * a toast with the error's text; the button shows it is busy meanwhile (a large export takes a while).
 */
export function CsvDownloadButton({
  path,
  query,
  fallbackName,
  disabled = false,
  help,
  request,
}: CsvDownloadButtonProps) {
  const { t } = useTranslation();
  const [pending, setPending] = useState(false);
  const download = async () => {
    setPending(true);
    try {
      await downloadCsv(path, query, fallbackName, request);
    } catch (error) {
      notifyError(error);
    } finally {
      setPending(false);
    }
  };
  return (
    <Tooltip label={help ?? t('table.downloadCsvHelp')}>
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
