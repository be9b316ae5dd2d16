import { Component, type ReactNode } from 'react';
import { useTranslation } from '../lib/i18n';

export function ErrorScreen({ error }: { error: unknown }) {
  const { t } = useTranslation('common');
  const text = error instanceof Error ? error.message : String(error ?? '');
  return (
    <main className="mx-auto max-w-xl p-8" role="alert">
      <h1 className="page-title">{t('errors.screen')}</h1>
      {text && <pre className="error whitespace-pre-wrap">{text}</pre>}
      <p className="mt-4">
        <a href="/">{t('errors.backToStart')}</a>
      </p>
    </main>
  );
}

/** The top-level fallback: 'Something went wrong.' with the error text. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    return this.state.error ? <ErrorScreen error={this.state.error} /> : this.props.children;
  }
}
