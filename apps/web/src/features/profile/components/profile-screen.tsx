import { useNavigate } from 'react-router';
import { useMe } from '../api/get-me';
import { AccountForm } from './account-form';
import { PasswordForm } from './password-form';
import { QueryStatus } from '../../../components/ui/query-status';
import { useTranslation } from '../../../lib/i18n';

/** /profile: the Account form and the Change Password form side by side on wide screens. */
export function ProfileScreen({ onLogout }: { onLogout: () => Promise<void> }) {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  const me = useMe();

  const logoutHere = async () => {
    await onLogout();
    navigate('/login');
  };

  return (
    <section>
      <h1 className="page-title">{t('layout.profile')}</h1>
      <QueryStatus query={me} failure={t('profile.loadFailed')} />
      {me.data && (
        <div className="grid items-start gap-6 lg:grid-cols-2">
          <AccountForm key={me.data.id} user={me.data} onLogout={logoutHere} />
          <PasswordForm />
        </div>
      )}
    </section>
  );
}
