import { useState, type FormEvent } from 'react';
import { errorText } from '../../../lib/api-client';
import { useChangePassword } from '../api/change-password';
import { TextField } from '../../../components/ui/text-field';
import { useTranslation } from '../../../lib/i18n';

/** Current and new password; the server ends the user's other sessions when it changes. */
export function PasswordForm() {
  const { t } = useTranslation('common');
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const change = useChangePassword();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          setCurrentPassword('');
          setNewPassword('');
        },
      },
    );
  };

  return (
    <form className="card flex flex-col gap-4" onSubmit={onSubmit} aria-labelledby="password-heading">
      <h2 id="password-heading" className="text-lg font-semibold text-white">
        {t('profile.changePassword')}
      </h2>
      {/* Lets password managers tie the new password to this account. */}
      <input type="hidden" name="username" autoComplete="username" />
      <TextField
        label={t('profile.currentPassword')}
        type="password"
        name="currentPassword"
        autoComplete="current-password"
        required
        value={currentPassword}
        onValueChange={setCurrentPassword}
      />
      <TextField
        label={t('auth.newPassword')}
        type="password"
        name="newPassword"
        autoComplete="new-password"
        required
        aria-describedby="new-password-hint"
        value={newPassword}
        onValueChange={setNewPassword}
      >
        <span id="new-password-hint" className="muted text-xs">
          {t('profile.passwordHint')}
        </span>
      </TextField>
      {change.isSuccess && (
        <p className="notice" role="status">
          {t('profile.passwordUpdated')}
        </p>
      )}
      {change.isError && (
        <p className="error" role="alert">
          {errorText(change.error, t('profile.passwordFailed'))}
        </p>
      )}
      <div>
        <button type="submit" className="btn-primary" disabled={change.isPending}>
          {change.isPending ? t('profile.updating') : t('profile.updatePassword')}
        </button>
      </div>
    </form>
  );
}
