import { useState, type FormEvent } from 'react';
import type { User } from '@cinema/contract';
import { errorText } from '../../../lib/api-client';
import { useUpdateProfile } from '../api/update-profile';
import { TextField } from '../../../components/ui/text-field';
import { useTranslation } from '../../../lib/i18n';

/** Name and email with Save, plus the Logout button. */
export function AccountForm({ user, onLogout }: { user: User; onLogout: () => void }) {
  const { t } = useTranslation('common');
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const [currentPassword, setCurrentPassword] = useState('');
  const save = useUpdateProfile();
  // A new email needs the current password (the server asks for it too): the field shows only then.
  const emailChanges = email.trim().toLowerCase() !== user.email.toLowerCase();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate(
      { name: name.trim(), email: email.trim(), ...(emailChanges && { currentPassword }) },
      { onSuccess: () => setCurrentPassword('') },
    );
  };

  return (
    <form className="card flex flex-col gap-4" onSubmit={onSubmit} aria-labelledby="account-heading">
      <h2 id="account-heading" className="text-lg font-semibold text-white">
        {t('profile.account')}
      </h2>
      <TextField
        label={t('auth.name')}
        name="name"
        autoComplete="name"
        required
        value={name}
        onValueChange={setName}
      />
      <TextField
        label={t('auth.email')}
        type="email"
        name="email"
        autoComplete="email"
        required
        value={email}
        onValueChange={setEmail}
      />
      {emailChanges && (
        <TextField
          label={t('profile.currentPassword')}
          type="password"
          name="current-password"
          autoComplete="current-password"
          required
          aria-describedby="current-password-hint"
          value={currentPassword}
          onValueChange={setCurrentPassword}
        >
          <span id="current-password-hint" className="text-xs text-muted">
            {t('profile.neededForEmail')}
          </span>
        </TextField>
      )}
      {save.isSuccess && (
        <p className="notice" role="status">
          {t('profile.updated')}
        </p>
      )}
      {save.isError && (
        <p className="error" role="alert">
          {errorText(save.error, t('profile.updateFailed'))}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <button type="submit" className="btn-primary" disabled={save.isPending}>
          {save.isPending ? t('common.saving') : t('common.save')}
        </button>
        <button type="button" className="btn-secondary" onClick={onLogout}>
          {t('layout.logout')}
        </button>
      </div>
    </form>
  );
}
