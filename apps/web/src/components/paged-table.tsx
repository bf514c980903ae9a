import type { Page } from '@resi/contract';
import { useQuery, type QueryKey, type UseQueryOptions, type UseQueryResult } from '@tanstack/react-query';
import { Table, type TableProps } from 'antd';
import { useCallback, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryError, tableEmptyText } from './query-state';

export interface Paging {
  page: number;
  pageSize: number;
}

/** The server's default page size (docs/api.md#lists-and-paging). */
export const DEFAULT_PAGE_SIZE = 20;

export interface PagedQuery<P> {
  query: UseQueryResult<P>;
  paging: Paging;
  setPaging: (paging: Paging) => void;
}

/**
 * One server-paged list: the page and page size, and the query for them. When the filters change the list
 * goes back to page 1; the query options come from the list's api/ file, so its key (and invalidation) stays.
 */
export function usePagedQuery<F extends object, P extends Page<unknown>, K extends QueryKey>(
  options: (request: F & Paging) => UseQueryOptions<P, Error, P, K>,
  filters: F,
  pageSize = DEFAULT_PAGE_SIZE,
): PagedQuery<P> {
  const filterKey = JSON.stringify(filters);
  const [state, setState] = useState({ filterKey, page: 1, pageSize });
  const paging: Paging = { page: state.filterKey === filterKey ? state.page : 1, pageSize: state.pageSize };
  const query = useQuery(options({ ...filters, ...paging }));
  const setPaging = useCallback((next: Paging) => setState({ filterKey, ...next }), [filterKey]);
  return { query, paging, setPaging };
}

type PagedTableProps<T> = Omit<TableProps<T>, 'dataSource' | 'pagination' | 'onChange' | 'loading' | 'locale' | 'scroll'> & {
  paged: PagedQuery<Page<T>>;
  /** What an empty page says (a successful answer with no rows). */
  emptyText: ReactNode;
  errorTitle?: string;
  errorTestId?: string;
  /** Server-side sorting: the column key clicked and its direction (undefined: back to the list's default). */
  onSortChange?: (columnKey: string | undefined, order: 'ascend' | 'descend' | undefined) => void;
};

/**
 * The table of a server-paged list: a skeleton until the first page arrives, the shared error with Retry if
 * it failed, else the rows with antd's pagination driving `paging`. It scrolls sideways inside its card
 * rather than widening the page (phones).
 */
export function PagedTable<T extends object>({ paged, emptyText, errorTitle, errorTestId, onSortChange, ...table }: PagedTableProps<T>) {
  const { t } = useTranslation();
  const { query, paging, setPaging } = paged;
  if (query.isError) return <QueryError query={query} title={errorTitle} testId={errorTestId} />;
  return (
    <Table<T>
      {...table}
      loading={query.isFetching && !query.isPending}
      dataSource={query.data?.items ?? []}
      // Not max-content: that lays every column out unwrapped, so a table ran past a laptop's width and its
      // last columns slid under the pinned Actions; auto widths wrap what may wrap and scroll only the rest.
      scroll={{ x: true }}
      locale={{ emptyText: tableEmptyText(query.isPending, emptyText) }}
      pagination={{
        current: paging.page,
        pageSize: paging.pageSize,
        total: query.data?.total ?? 0,
        showSizeChanger: true,
        showTotal: (total) => t('commerce.total', { total }),
      }}
      onChange={(p, _filters, sorter, extra) => {
        if (extra.action === 'sort') {
          const one = Array.isArray(sorter) ? sorter[0] : sorter;
          onSortChange?.(one?.order ? String(one.columnKey) : undefined, one?.order ?? undefined);
          return;
        }
        setPaging({ page: p.current ?? 1, pageSize: p.pageSize ?? paging.pageSize });
      }}
    />
  );
}
