import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** What the loading, error and data states are read from: a TanStack query result, or several combined. */
export interface QueryLike<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  isFetching: boolean;
  refetch: () => unknown;
}

interface QueryErrorProps {
  query: Pick<QueryLike<unknown>, 'error' | 'isFetching' | 'refetch'>;
  /** What could not be loaded; a generic sentence otherwise. */
  title?: string;
  testId?: string;
}

/** A failed load: what failed, the API client's reason, and a button that asks again. */
export function QueryError({ query, title, testId = 'query-error' }: QueryErrorProps) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      className="query-error"
      title={title ?? t('common.loadFailed')}
      description={query.error?.message}
      action={
        <Button icon={<ReloadOutlined />} loading={query.isFetching} onClick={() => void query.refetch()} data-testid="query-retry">
          {t('common.retry')}
        </Button>
      }
      data-testid={testId}
    />
  );
}

interface QueryStateProps<T> {
  query: QueryLike<T>;
  /** Paragraph rows of the loading skeleton. */
  rows?: number;
  /** Shown until the first answer instead of the skeleton: the loaded part's own shape, so nothing moves when it comes. */
  placeholder?: ReactNode;
  errorTitle?: string;
  errorTestId?: string;
  /** The loaded data; an empty list is the caller's to show, as its own state. */
  children: (data: T) => ReactNode;
}

/**
 * Loading, error and data as three different things (docs/console.md#loading-empty-and-error): a skeleton
 * until the first answer, an inline error with Retry when the request failed (never empty or zero data in
 * its place, even when an older answer is cached), else the children with the data.
 */
export function QueryState<T>({ query, rows = 3, placeholder, errorTitle, errorTestId, children }: QueryStateProps<T>) {
  if (query.isError) return <QueryError query={query} title={errorTitle} testId={errorTestId} />;
  if (query.data === undefined) return placeholder ?? <Skeleton active paragraph={{ rows }} />;
  return <>{children(query.data)}</>;
}

/**
 * A table's empty text while its rows are still coming: a skeleton in the table's body, never its "none yet"
 * words (docs/console.md#loading-empty-and-error).
 */
export function tableEmptyText(loading: boolean, emptyText: ReactNode): ReactNode {
  return loading ? <Skeleton active paragraph={{ rows: 4 }} /> : emptyText;
}

/** Several queries as one: data once all have answered, failed when any failed; Retry asks again only for the failed ones. */
export function combineQueries<const Q extends readonly QueryLike<unknown>[]>(queries: Q): QueryLike<{ [K in keyof Q]: NonNullable<Q[K]['data']> }> {
  const failed = queries.filter((q) => q.isError);
  const ready = queries.every((q) => q.data !== undefined);
  return {
    data: ready ? (queries.map((q) => q.data) as { [K in keyof Q]: NonNullable<Q[K]['data']> }) : undefined,
    isPending: queries.some((q) => q.isPending),
    isError: failed.length > 0,
    error: failed[0]?.error ?? null,
    isFetching: queries.some((q) => q.isFetching),
    refetch: () => Promise.all(failed.map((q) => q.refetch())),
  };
}
