import { Center } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { StatusMessage } from '../components/status-message';
import { PATHS } from '../lib/paths';

/** Spec section 2: an unauthorized page showing '401' and 'Unauthorized Access'. */
export function UnauthorizedPage() {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" p="md" component="main">
      <StatusMessage
        code={t('unauthorized.code')}
        title={t('unauthorized.title')}
        body={t('unauthorized.body')}
        action={{ label: t('unauthorized.login'), to: PATHS.login.pattern }}
      />
    </Center>
  );
}
