import { Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFindUsers } from '@/api/find-users';

const DEBOUNCE_MS = 300;

export interface KnownUser {
  id: number;
  email: string;
}

interface UserPickerProps {
  value?: number;
  onChange?: (value: number | undefined) => void;
  id?: string;
  /** A user offered before any search (a preselection). */
  known?: KnownUser;
  /** Offer distributors only (a filter by distributor). */
  distributorsOnly?: boolean;
  placeholder?: string;
  allowClear?: boolean;
  testId?: string;
}

/** Picks a user (admins) by typing part of the email, or the numeric id; the value is the user id. */
export function UserPicker({ value, onChange, id, known, distributorsOnly = false, placeholder, allowClear, testId = 'recharge-user' }: UserPickerProps) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const users = useFindUsers(/^\d+$/.test(search) ? '' : search, distributorsOnly);

  const options = (users.data?.items ?? []).map((u) => ({ value: u.id, label: `${u.email} (#${u.id})` }));
  if (known && !options.some((o) => o.value === known.id)) options.push({ value: known.id, label: `${known.email} (#${known.id})` });
  if (/^\d+$/.test(search) && Number(search) > 0) options.unshift({ value: Number(search), label: t('admin.recharge.userById', { id: search }) });

  return (
    <Select<number>
      id={id}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      value={value}
      onChange={(v) => onChange?.(v)}
      options={options}
      loading={users.isFetching}
      placeholder={placeholder ?? t('admin.recharge.userPlaceholder')}
      allowClear={allowClear}
      notFoundContent={search ? t('admin.recharge.noUser') : t('admin.recharge.typeToSearch')}
      data-testid={testId}
    />
  );
}
