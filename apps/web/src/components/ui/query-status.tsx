import { errorText } from '../../lib/api-client';

/** "Loading…" while a query runs, then the server's error (or the screen's own message) if it failed. */
export function QueryStatus({
  query,
  failure,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown };
  failure: string;
}) {
  if (query.isPending) {
    return (
      <p className="muted" role="status">
        Loading…
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
