import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState, type RefObject } from 'react';
import { describe, expect, it } from 'vitest';

/** A field shown by a button, as a screen adds a form or a dialog after the page has loaded. */
function Later({ field }: { field?: RefObject<HTMLInputElement | null> }) {
  const [open, setOpen] = useState(false);
  const [count, setCount] = useState(0);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <button type="button" onClick={() => setCount((n) => n + 1)}>
        Count {count}
      </button>
      {open && <input aria-label="Name" autoFocus ref={field} />}
      <div aria-label="Box" autoFocus />
    </>
  );
}

describe('React behaviour on Preact (decision 054)', () => {
  it('focuses a field with autoFocus as it is mounted, once, and writes no attribute', async () => {
    const user = userEvent.setup();
    render(<Later />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const field = screen.getByRole('textbox', { name: 'Name' });
    expect(document.activeElement).toBe(field);
    expect(field).not.toHaveAttribute('autofocus');
    expect(screen.getByLabelText('Box')).not.toHaveAttribute('autofocus');

    // Rendered again, it does not take focus back from where the user went.
    const count = screen.getByRole('button', { name: /^Count/ });
    await user.click(count);
    expect(count).toHaveTextContent('Count 1');
    expect(document.activeElement).toBe(count);
  });

  it('still gives the element to the ref the screen put on it', async () => {
    let seen: RefObject<HTMLInputElement | null> | undefined;
    function WithRef() {
      const field = useRef<HTMLInputElement>(null);
      seen = field;
      return <Later field={field} />;
    }
    render(<WithRef />);
    await act(async () => screen.getByRole('button', { name: 'Open' }).click());
    expect(seen?.current).toBe(screen.getByRole('textbox', { name: 'Name' }));
    expect(document.activeElement).toBe(seen?.current);
  });
});
