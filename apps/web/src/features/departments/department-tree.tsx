import { Group, getTreeExpandedState, Text, Tree, type TreeNodeData, useTree } from '@mantine/core';
import type { Department } from '@opsdeck/contract/departments';
import { LIMITS } from '@opsdeck/contract/limits';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { truncateText } from '../../lib/truncate';
import { treeSelection } from './department-search';

const NO_CHILDREN = ':none';

const COMPANY = 'company:';

/**
 * The departments as Mantine tree data. A department without children gets one placeholder
 * child, so that opening it says 'No children' (spec section 2: the tree's 'no children' message).
 * Departments of several companies (an admin with no company picked) hang under their company.
 * With `shown` (a search's matches and their ancestors) only those appear, in the same places;
 * a shown department whose children are all hidden has them, so it gets no placeholder.
 */
export function departmentTreeData(list: readonly Department[], shown?: ReadonlySet<number> | null): TreeNodeData[] {
  const companies = [...new Set(list.map((department) => department.companyName))].sort();
  if (companies.length < 2) return departmentForest(list, shown);
  return companies
    .map((name) => ({
      value: `${COMPANY}${name}`,
      label: name,
      children: departmentForest(
        list.filter((department) => department.companyName === name),
        shown,
      ),
    }))
    .filter((company) => company.children.length > 0);
}

function departmentForest(list: readonly Department[], shown?: ReadonlySet<number> | null): TreeNodeData[] {
  const ids = new Set(list.map((department) => department.id));
  const childrenOf = new Map<number | null, Department[]>();
  for (const department of list) {
    const parent = department.parentId !== null && ids.has(department.parentId) ? department.parentId : null;
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), department]);
  }
  const build = (parent: number | null): TreeNodeData[] =>
    (childrenOf.get(parent) ?? [])
      .filter((department) => !shown || shown.has(department.id))
      .map((department) => {
        const children = build(department.id);
        if (children.length) return { value: String(department.id), label: department.name, children };
        const childless = !childrenOf.has(department.id);
        return {
          value: String(department.id),
          label: department.name,
          children: childless ? [{ value: `${department.id}${NO_CHILDREN}`, label: '' }] : undefined,
        };
      });
  return build(null);
}

/** The hierarchy of the departments, every level open; a search narrows it to the matches and their ancestors. */
export function DepartmentTree({ departments, search = '' }: { departments: readonly Department[]; search?: string }) {
  const { t } = useTranslation();
  const data = useMemo(
    () => departmentTreeData(departments, treeSelection(departments, search)),
    [departments, search],
  );
  if (data.length === 0) {
    const text = search.trim();
    return <Text c="dimmed">{text ? t('departments.treeNoMatch', { text }) : t('table.empty')}</Text>;
  }
  // A new shape mounts a new tree, opened anew (a handful of departments per company).
  return <OpenTree key={JSON.stringify(data)} data={data} />;
}

function OpenTree({ data }: { data: TreeNodeData[] }) {
  const { t } = useTranslation();
  const tree = useTree({ initialExpandedState: getTreeExpandedState(data, '*') });
  return (
    <Tree
      data={data}
      tree={tree}
      levelOffset="lg"
      aria-label={t('departments.tree')}
      renderNode={({ node, expanded, hasChildren, elementProps }) =>
        node.value.endsWith(NO_CHILDREN) ? (
          <Text {...elementProps} size="sm" c="dimmed" fs="italic">
            {t('departments.noChildren')}
          </Text>
        ) : (
          <Group gap={6} wrap="nowrap" {...elementProps}>
            {hasChildren &&
              (expanded ? (
                <IconChevronDown size={14} aria-hidden="true" />
              ) : (
                <IconChevronRight size={14} aria-hidden="true" />
              ))}
            <Text size="sm" fw={node.value.startsWith(COMPANY) ? 600 : undefined}>
              {truncateText(String(node.label), LIMITS.truncate.tableContent)}
            </Text>
          </Group>
        )
      }
    />
  );
}
