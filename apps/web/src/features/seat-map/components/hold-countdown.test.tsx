import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from '../../../lib/api-client';
import { HoldCountdown } from './hold-countdown';

vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: vi.fn(),
}));

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const tick = (s: number) => act(() => vi.advanceTimersByTime(s * 1000));
/** What the assertive live region says now. */
const spoken = () => document.querySelector('[aria-live="assertive"]')!.textContent;

describe('the hold countdown', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.mocked(api).mockReset();
  });

  it('warns at 60 and 20 seconds left, once each, then says the hold expired and gives the map back', () => {
    const onExpire = vi.fn();
    render(<HoldCountdown expiresAt={inSeconds(90)} onExpire={onExpire} bookingIds={['b1']} />);
    expect(screen.getByRole('timer').textContent).toBe('Your seats are held for 1:30');
    expect(spoken()).toBe('');
    tick(31);
    expect(spoken()).toBe('1 minute left on your hold.');
    tick(40);
    expect(spoken()).toBe('20 seconds left on your hold.');
    tick(20);
    expect(onExpire).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alert').textContent).toMatch(
      /^Your hold has expired and the seats were released/,
    );
    expect(screen.queryByRole('button', { name: 'More time' })).toBeNull();
  });

  it('offers More time once in the last two minutes; the server’s answer is what counts', async () => {
    const onExtended = vi.fn();
    vi.mocked(api).mockResolvedValueOnce({ expiresAt: inSeconds(700), extended: 1 });
    const { rerender } = render(
      <HoldCountdown
        expiresAt={inSeconds(300)}
        onExpire={vi.fn()}
        bookingIds={['b1']}
        onExtended={onExtended}
      />,
    );
    expect(screen.queryByRole('button', { name: 'More time' })).toBeNull();
    tick(181);
    await act(async () => screen.getByRole('button', { name: 'More time' }).click());
    expect(api).toHaveBeenCalledWith('/showtimes/bookings/more-time', {
      method: 'POST',
      body: { bookingIds: ['b1'] },
    });
    expect(onExtended).toHaveBeenCalled();
    expect(spoken()).toBe('Your hold has more time now.');
    rerender(
      <HoldCountdown
        expiresAt={inSeconds(700)}
        onExpire={vi.fn()}
        bookingIds={['b1']}
        onExtended={onExtended}
      />,
    );
    expect(screen.queryByRole('button', { name: 'More time' })).toBeNull();
  });

  it('says why when the server refuses more time', async () => {
    vi.mocked(api).mockRejectedValueOnce(
      new ApiError('You have had more time for these seats already', 409, 'more_time_used'),
    );
    render(<HoldCountdown expiresAt={inSeconds(50)} onExpire={vi.fn()} bookingIds={['b1']} />);
    await act(async () => screen.getByRole('button', { name: 'More time' }).click());
    expect(screen.getByRole('alert').textContent).toBe('You have had more time for these seats already');
    expect(screen.queryByRole('button', { name: 'More time' })).toBeNull();
  });
});
