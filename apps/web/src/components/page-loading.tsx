import { Spin } from 'antd';

/** Placeholder while a page chunk or the first navigation loads. */
export function PageLoading({ full = false }: { full?: boolean }) {
  return (
    <div className={full ? 'page-loading page-loading--full' : 'page-loading'}>
      <Spin size="large" />
    </div>
  );
}
