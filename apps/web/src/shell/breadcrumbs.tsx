import { Anchor, Breadcrumbs as MantineBreadcrumbs, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { advanceTrail, type Crumb, crumbName, crumbsFor, useCrumbNames, visibleTrail } from '../lib/breadcrumb-trail';

/**
 * The trail of pages visited in this session (spec: the last 5, with an ellipsis that jumps back).
 * It is shown on pages that have a crumb, and lives as long as the shell does.
 */
export function Breadcrumbs() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [state, setState] = useState(() => ({ pathname, trail: advanceTrail([], pathname) }));
  useCrumbNames();

  // Advanced during render, not in an effect, so that a new page never shows the old trail.
  let trail = state.trail;
  if (state.pathname !== pathname) {
    trail = advanceTrail(state.trail, pathname);
    setState({ pathname, trail });
  }

  if (crumbsFor(pathname).length === 0) return null;
  const { jumpBack, shown } = visibleTrail(trail);
  const label = (crumb: Crumb) => crumbName(crumb.path) ?? t(crumb.label);

  return (
    <nav aria-label={t('shell.breadcrumbs')}>
      <MantineBreadcrumbs separatorMargin={6} mb="md" style={{ flexWrap: 'wrap' }}>
        {jumpBack && (
          <Anchor component={Link} to={jumpBack.path} size="sm" aria-label={t('shell.earlierPages')}>
            …
          </Anchor>
        )}
        {shown.map((crumb, index) =>
          index === shown.length - 1 ? (
            <Text key={crumb.path} size="sm" fw={500} aria-current="page">
              {label(crumb)}
            </Text>
          ) : (
            <Anchor key={crumb.path} component={Link} to={crumb.path} size="sm">
              {label(crumb)}
            </Anchor>
          ),
        )}
      </MantineBreadcrumbs>
    </nav>
  );
}
