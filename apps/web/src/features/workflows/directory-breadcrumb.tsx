import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import { useTranslation } from 'react-i18next';
import { Link, type To } from 'react-router';
import { Truncate } from '../../components/truncate';
import { visibleTrail } from '../../lib/breadcrumb-trail';
import { crumbsOfPath } from './directory-path';

interface DirectoryBreadcrumbProps {
  path: string;
  /** The link that lists a directory. */
  href: (path: string) => To;
}

/**
 * The listed directory's levels (spec section 2: a folder tree with breadcrumb navigation), the
 * last five with an ellipsis that jumps back to the level before them; a level's link lists it.
 */
export function DirectoryBreadcrumb({ path, href }: DirectoryBreadcrumbProps) {
  const { t } = useTranslation();
  const { jumpBack, shown } = visibleTrail(crumbsOfPath(path), LIMITS.breadcrumbEntries);
  const name = (label: string) => <Truncate text={label} max={LIMITS.truncate.navigationName} />;
  return (
    <nav aria-label={t('workflows.path.label')}>
      <Breadcrumbs separatorMargin={6} style={{ flexWrap: 'wrap' }}>
        {jumpBack && (
          <Anchor
            component={Link}
            to={href(jumpBack.path)}
            size="sm"
            aria-label={t('workflows.path.earlier', { name: jumpBack.label })}
          >
            …
          </Anchor>
        )}
        {shown.map((crumb, index) =>
          index === shown.length - 1 ? (
            <Text key={crumb.path} size="sm" fw={600} aria-current="location">
              {name(crumb.label)}
            </Text>
          ) : (
            <Anchor key={crumb.path} component={Link} to={href(crumb.path)} size="sm">
              {name(crumb.label)}
            </Anchor>
          ),
        )}
      </Breadcrumbs>
    </nav>
  );
}
