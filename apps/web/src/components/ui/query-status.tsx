import { errorText } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';

/** "Loading…" while a query runs, then the server's error (or the screen's own message) if it failed. */
export function QueryStatus({
  query,
  failure,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown };
  failure: string;
}) {
  const { t } = useTranslation('common');
  if (query.isPending) {
    return (
      <p className="muted" role="status">
        {t('common.loading')}
      </p>
    );
  }
  if (query.isError) {
    return (
      <p className="error" role="alert">
        {errorText(query.error, failure)}
      </p>
    );
  }
  return null;
}
