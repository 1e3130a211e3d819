import { useTranslation } from 'react-i18next';
import { StatusMessage } from '../components/status-message';
import { toViewer } from '../lib/authorities';
import { PATHS } from '../lib/paths';
import { useProfile } from '../lib/profile-context';
import { dashboardDefault } from './routing-rules';

export function ForbiddenPage() {
  const { t } = useTranslation();
  const viewer = toViewer(useProfile());
  // A link to the dashboard only helps when the dashboard leads somewhere else than here.
  const hasHome = dashboardDefault(viewer) !== PATHS.forbidden.pattern;
  return (
    <StatusMessage
      code={t('forbidden.code')}
      title={t('forbidden.title')}
      body={t('forbidden.body')}
      action={hasHome ? { label: t('forbidden.home'), to: PATHS.dashboard.pattern } : undefined}
    />
  );
}
