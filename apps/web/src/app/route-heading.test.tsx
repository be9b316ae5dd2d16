import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useState } from 'react';
import { Link, MemoryRouter, Outlet, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useRouteHeading } from './route-heading';

function Shell() {
  useRouteHeading();
  return (
    <>
      <nav>
        <Link to="/a">To A</Link> <Link to="/slow">To slow</Link> <Link to="/form">To form</Link>
      </nav>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}

/** A screen whose heading comes after its data: "Loading…" first, then the real one in its place. */
function Slow() {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLoaded(true), 20);
    return () => clearTimeout(timer);
  }, []);
  return loaded ? <h1 key="ready">The Big Film</h1> : <h1 key="loading">Loading…</h1>;
}

const app = () =>
  render(
    <MemoryRouter initialEntries={['/a']}>
      <Routes>
        <Route element={<Shell />}>
          <Route path="/a" element={<h1>Screen A</h1>} />
          <Route path="/slow" element={<Slow />} />
          <Route
            path="/form"
            element={
              <>
                <h1>A form</h1>
                <input aria-label="Name" autoFocus />
              </>
            }
          />
        </Route>
      </Routes>
    </MemoryRouter>,
  );

describe('every route', () => {
  it('names the tab after its main heading and moves focus there', async () => {
    app();
    await waitFor(() => expect(document.title).toBe('Screen A · Cinema'));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Screen A' }));
  });

  it('follows a heading that arrives with the data, keeping focus on it', async () => {
    const user = userEvent.setup();
    app();
    await user.click(screen.getByRole('link', { name: 'To slow' }));
    await waitFor(() => expect(document.title).toBe('The Big Film · Cinema'));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'The Big Film' }));
  });

  it('leaves focus where a screen put it on one of its fields, and still titles the tab', async () => {
    const user = userEvent.setup();
    app();
    await user.click(screen.getByRole('link', { name: 'To form' }));
    await waitFor(() => expect(document.title).toBe('A form · Cinema'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Name' }));
  });
});
