import { BrowserRouter } from 'react-router';
import { AppRoutes } from './router';
import { ErrorBoundary } from './error-boundary';
import { SessionCheck } from './session-check';

export function App() {
  return (
    <ErrorBoundary>
      <SessionCheck />
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </ErrorBoundary>
  );
}
