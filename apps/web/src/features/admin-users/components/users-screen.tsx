import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { AdminUser, Role } from '@cinema/contract';
import { errorText } from '../../../lib/api-client';
import { useFindUsers, useSetRole } from '../api/users';

const ROLES: Role[] = ['USER', 'STAFF', 'ADMIN'];

function UserRow({ user }: { user: AdminUser }) {
  const { t } = useTranslation('admin');
  const [role, setRole] = useState<Role>(user.role);
  const save = useSetRole();
  const selectId = `role-${user.id}`;
  return (
    <tr className="border-b border-line last:border-0">
      <td className="px-4 py-3">{user.name}</td>
      <td className="px-4 py-3 break-all">{user.email}</td>
      <td className="px-4 py-3">
        <form
          className="flex flex-wrap items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate({ id: user.id, role });
          }}
        >
          <label htmlFor={selectId} className="sr-only">
            {t('users.roleOf', { name: user.name })}
          </label>
          <select
            id={selectId}
            className="input w-auto max-w-full"
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`users.roles.${r}`)}
              </option>
            ))}
          </select>
          <button type="submit" className="btn-secondary" disabled={role === user.role || save.isPending}>
            {t('users.saveRole')}
          </button>
          {save.isError && (
            <span role="alert" className="error">
              {errorText(save.error, t('users.saveFailed'))}
            </span>
          )}
          {save.isSuccess && save.data.role === role && <span role="status">{t('users.saved')}</span>}
        </form>
      </td>
    </tr>
  );
}

/** /admin/users: find accounts and set their roles (admins only). */
export function UsersScreen() {
  const { t } = useTranslation('admin');
  const [draft, setDraft] = useState('');
  const [q, setQ] = useState('');
  const users = useFindUsers(q);
  const search = (e: FormEvent) => {
    e.preventDefault();
    setQ(draft.trim());
  };
  return (
    <section>
      <h1 className="page-title">{t('users.title')}</h1>
      <p className="mb-4 muted">{t('users.intro')}</p>
      <form
        onSubmit={search}
        role="search"
        className="card mb-4 flex flex-col gap-2 sm:flex-row sm:items-end"
      >
        <label className="field flex-1">
          <span className="field-label">{t('users.query')}</span>
          <input className="input" value={draft} onChange={(e) => setDraft(e.target.value)} maxLength={100} />
        </label>
        <button type="submit" className="btn-primary">
          {t('users.search')}
        </button>
      </form>
      {users.isPending && <p className="muted">{t('common.loading')}</p>}
      {users.isError && (
        <p role="alert" className="error">
          {errorText(users.error, t('users.loadFailed'))}
        </p>
      )}
      {users.data?.users.length === 0 && <p className="card">{t('users.noMatch')}</p>}
      {users.data && users.data.users.length > 0 && (
        <div className="card overflow-x-auto p-0">
          <table className="w-full text-left text-sm">
            <caption className="px-4 pt-4 text-left text-muted">
              {q ? t('users.matching', { q }) : t('users.staffFirst')}
            </caption>
            <thead className="border-b border-line text-slate-300">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('common.name')}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('common.email')}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('users.role')}
                </th>
              </tr>
            </thead>
            <tbody>
              {users.data.users.map((u) => (
                <UserRow key={u.id} user={u} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
