import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { HallLayoutResponse } from '@cinema/contract';
import { api, ApiError } from '../../../lib/api-client';
import { HallEditor } from './hall-editor';

vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: vi.fn(),
}));

/** Hall 9: row A `ss.s`, row B `ssss`, every seat with its id. */
const hall: HallLayoutResponse = {
  id: 'hall-9',
  name: 'Hall 9',
  cols: 4,
  seatCount: 7,
  rows: [
    {
      label: 'A',
      cells: [
        { kind: 'SEAT', type: 'STANDARD', id: 'a1', number: 1 },
        { kind: 'SEAT', type: 'STANDARD', id: 'a2', number: 2 },
        { kind: 'GAP' },
        { kind: 'SEAT', type: 'STANDARD', id: 'a3', number: 3 },
      ],
    },
    {
      label: 'B',
      cells: [1, 2, 3, 4].map((n) => ({ kind: 'SEAT', type: 'STANDARD', id: `b${n}`, number: n })),
    },
  ],
};

function openEditor(saved?: HallLayoutResponse) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <HallEditor hall={saved} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const cellNamed = (name: string | RegExp) => screen.getByRole('button', { name });
const preview = () => within(screen.getByRole('group', { name: 'Preview of the seat map' }));

beforeEach(() => {
  vi.mocked(api).mockReset();
});

describe('the layout editor', () => {
  it('paints by keyboard: Enter paints, Shift with an arrow paints as it moves, and the preview follows', async () => {
    const user = userEvent.setup();
    openEditor();
    await user.click(screen.getByRole('radio', { name: 'Gap (aisle, stairs)' }));
    act(() => cellNamed('Row A, column 1: standard seat 1').focus());
    await user.keyboard('{ArrowRight}{Enter}');
    expect(cellNamed('Row A, column 2: gap')).toHaveFocus();
    await user.keyboard('{Shift>}{ArrowDown}{/Shift}');
    expect(cellNamed('Row B, column 2: gap')).toHaveFocus();
    // The seat after the aisle is seat 2, in the grid's third column.
    expect(preview().getByRole('button', { name: 'Row B, seat 2, available' })).toHaveAttribute(
      'data-col',
      '2',
    );
    expect(screen.getByTestId('layout-summary')).toHaveTextContent(/^94 seats$/);
  });

  it('lists what stops a save and sends nothing', async () => {
    const user = userEvent.setup();
    openEditor();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Hall 4');
    await user.click(screen.getByRole('radio', { name: 'Companion seat' }));
    await user.click(cellNamed('Row C, column 5: standard seat 5'));
    expect(cellNamed('Row C, column 5: companion seat 5, has a problem')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create hall' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'A companion seat in row C must be next to a wheelchair space',
    );
    expect(api).not.toHaveBeenCalled();
  });

  it('names the seats a save would move while they are sold, and outlines where they stood', async () => {
    const user = userEvent.setup();
    vi.mocked(api).mockRejectedValue(
      new ApiError('These seats are held or sold for a coming showtime…', 409, 'seats_at_stake', {
        seats: [
          { id: 'a3', rowLabel: 'A', number: 3 },
          { id: 'a2', rowLabel: 'A', number: 2 },
        ],
      }),
    );
    openEditor(hall);
    await user.click(screen.getByRole('radio', { name: 'Gap (aisle, stairs)' }));
    await user.click(cellNamed('Row A, column 2: standard seat 2'));
    await user.click(screen.getByRole('button', { name: 'Save layout' }));
    expect(vi.mocked(api)).toHaveBeenCalledWith('/admin/halls/hall-9/layout', {
      method: 'PUT',
      body: expect.objectContaining({ name: 'Hall 9' }),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^Row A, seats 2 and 3 are held or sold for a coming showtime/,
    );
    expect(cellNamed('Row A, column 2: gap, held or sold for a coming showtime')).toBeInTheDocument();
    expect(
      cellNamed('Row A, column 4: standard seat 2, held or sold for a coming showtime'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Undo all changes' }));
    expect(cellNamed('Row A, column 2: standard seat 2')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
