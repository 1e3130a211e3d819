import { pathSegments } from '@opsdeck/contract/workflows';
import { holds, type Viewer } from '../../lib/authorities';

/** What the listed directory allows, whoever the items (spec section 2, Workflow list). */
export interface PlaceRules {
  /**
   * The name filter row (the search bar), and the edit and delete actions: hidden for the
   * provider administrator above the third level (the root of company folders, and a company's
   * root), and for a company user at its root.
   */
  changesShown: boolean;
  /** Nothing can be created at the provider's root: it holds the company folders. */
  creatable: boolean;
}

/** The provider administrator is the user of no company (spec section 1). */
export const isProviderAdmin = (viewer: Viewer) => viewer.companyId === null;

export function placeRules(viewer: Viewer, path: string): PlaceRules {
  const levels = pathSegments(path).length;
  const admin = isProviderAdmin(viewer);
  return { changesShown: levels >= (admin ? 3 : 2), creatable: !admin || levels >= 2 };
}

/** One context-menu action: not offered, offered but not allowed (the authority is missing), or allowed. */
export type Availability = 'hidden' | 'disabled' | 'enabled';

export interface MenuItemRef {
  type: 'directory' | 'workflow';
  parent: string;
  protected: boolean;
}

export interface ItemActions {
  open: Availability;
  edit: Availability;
  download: Availability;
  remove: Availability;
  create: Availability;
}

const allowed = (viewer: Viewer, authority: Parameters<typeof holds>[1]): Availability =>
  holds(viewer, authority) ? 'enabled' : 'disabled';

/**
 * The context menu's actions on the items it was opened on (none: the table's background), from
 * the five workflow authorities (spec section 6). Several items are renamed, deleted and zipped in
 * one call on one directory, so a selection spanning directories (a search's hits) offers none of
 * those; company folders are never renamed or deleted.
 */
export function itemActions(viewer: Viewer, rules: PlaceRules, items: readonly MenuItemRef[]): ItemActions {
  const none = items.length === 0;
  const oneDirectory = new Set(items.map((item) => item.parent)).size <= 1;
  const changeable = rules.changesShown && !none && !items.some((item) => item.protected);
  const onSeveral = (availability: Availability): Availability =>
    availability === 'enabled' && !oneDirectory ? 'disabled' : availability;
  return {
    open: items.length === 1 ? allowed(viewer, 'VIEW_WORKFLOW') : 'hidden',
    edit: changeable ? onSeveral(allowed(viewer, 'EDIT_WORKFLOW')) : 'hidden',
    download: none ? 'hidden' : onSeveral(allowed(viewer, 'DOWNLOAD_WORKFLOW')),
    remove: changeable ? onSeveral(allowed(viewer, 'DELETE_WORKFLOW')) : 'hidden',
    create: rules.creatable ? allowed(viewer, 'CREATE_WORKFLOW') : 'hidden',
  };
}
