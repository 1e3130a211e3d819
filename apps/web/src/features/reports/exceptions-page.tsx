import { ExecutionListPage } from './execution-list-page';

/** Spec section 2, Error Logs: the runs that failed, with their message and activity. */
export function ExceptionsPage() {
  return <ExecutionListPage kind="exceptions" />;
}
