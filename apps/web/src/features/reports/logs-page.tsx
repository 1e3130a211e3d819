import { ExecutionListPage } from './execution-list-page';

/** Spec section 2, Execution Logs: every run, with its end, runtime, status, company and department. */
export function LogsPage() {
  return <ExecutionListPage kind="logs" />;
}
