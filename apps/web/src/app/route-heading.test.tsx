import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useState } from 'react';
import { Link, MemoryRouter, Outlet, Route, Routes, useNavigate } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { useRouteHeading } from './route-heading';

function Shell() {
  useRouteHeading();
  return (
    <>
      <nav>
        <Link to="/a">To A</Link> <Link to="/slow">To slow</Link> <Link to="/form">To form</Link>
        <Back />
      </nav>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}

function Back() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => void navigate(-1)}>
      Back
    </button>
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

  it('opens a page followed by a link at its top, and leaves going back to the browser', async () => {
    const user = userEvent.setup();
    const scrolled = vi.spyOn(Element.prototype, 'scrollTop', 'set');
    try {
      app();
      await waitFor(() => expect(document.title).toBe('Screen A · Cinema'));
      expect(scrolled).not.toHaveBeenCalled();
      await user.click(screen.getByRole('link', { name: 'To form' }));
      await waitFor(() => expect(scrolled).toHaveBeenCalledWith(0));
      scrolled.mockClear();
      await user.click(screen.getByRole('button', { name: 'Back' }));
      await waitFor(() => expect(document.title).toBe('Screen A · Cinema'));
      expect(scrolled).not.toHaveBeenCalled();
    } finally {
      scrolled.mockRestore();
    }
  });
});
