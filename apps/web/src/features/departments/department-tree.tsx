import { Group, getTreeExpandedState, Text, Tree, type TreeNodeData, useTree } from '@mantine/core';
import type { Department } from '@opsdeck/contract/departments';
import { LIMITS } from '@opsdeck/contract/limits';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { truncateText } from '../../lib/truncate';

const NO_CHILDREN = ':none';

const COMPANY = 'company:';

/**
 * The departments as Mantine tree data. A department without children gets one placeholder
 * child, so that opening it says 'No children' (spec section 2: the tree's 'no children' message).
 * Departments of several companies (an admin with no company picked) hang under their company.
 */
export function departmentTreeData(list: readonly Department[]): TreeNodeData[] {
  const companies = [...new Set(list.map((department) => department.companyName))].sort();
  if (companies.length < 2) return departmentForest(list);
  return companies.map((name) => ({
    value: `${COMPANY}${name}`,
    label: name,
    children: departmentForest(list.filter((department) => department.companyName === name)),
  }));
}

function departmentForest(list: readonly Department[]): TreeNodeData[] {
  const ids = new Set(list.map((department) => department.id));
  const childrenOf = new Map<number | null, Department[]>();
  for (const department of list) {
    const parent = department.parentId !== null && ids.has(department.parentId) ? department.parentId : null;
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), department]);
  }
  const build = (parent: number | null): TreeNodeData[] =>
    (childrenOf.get(parent) ?? []).map((department) => {
      const children = build(department.id);
      return {
        value: String(department.id),
        label: department.name,
        children: children.length ? children : [{ value: `${department.id}${NO_CHILDREN}`, label: '' }],
      };
    });
  return build(null);
}

/** The hierarchy of the listed departments, every level open. */
export function DepartmentTree({ departments }: { departments: readonly Department[] }) {
  const { t } = useTranslation();
  const data = useMemo(() => departmentTreeData(departments), [departments]);
  if (data.length === 0) return <Text c="dimmed">{t('table.empty')}</Text>;
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
