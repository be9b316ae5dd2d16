import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Settings } from '@cinema/contract';
import { ApiError, api } from './api-client';
import { settingsRetryMs, useSettings } from './settings';

vi.mock('./api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api-client')>()),
  api: vi.fn(),
}));

function Currency() {
  const settings = useSettings();
  return <p>{settings ? `Prices in ${settings.currency}` : 'Loading…'}</p>;
}

describe('the cinema settings', () => {
  afterEach(() => vi.useRealTimers());

  it('waits 1 s after a first failure, doubling up to 30 s', () => {
    expect([1, 2, 3, 5, 6, 9].map(settingsRetryMs)).toEqual([1000, 2000, 4000, 16_000, 30_000, 30_000]);
  });

  it('reads them again after a failed read (the server away) and shows them once they arrive', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.mocked(api)
      .mockRejectedValueOnce(new ApiError('Service unavailable', 503))
      .mockRejectedValueOnce(new ApiError('Service unavailable', 503))
      .mockResolvedValue({ currency: 'EUR' } as Settings);
    render(<Currency />);
    expect(screen.getByText('Loading…')).toBeInTheDocument();
    await act(async () => vi.advanceTimersByTimeAsync(900));
    expect(screen.getByText('Loading…')).toBeInTheDocument();
    expect(api).toHaveBeenCalledTimes(1);
    await act(async () => vi.advanceTimersByTimeAsync(2_200));
    expect(await screen.findByText('Prices in EUR')).toBeInTheDocument();
    expect(api).toHaveBeenCalledTimes(3);
    // Read once for the page: a screen opened later gets them at once.
    render(<Currency />);
    expect(screen.getAllByText('Prices in EUR')).toHaveLength(2);
    expect(api).toHaveBeenCalledTimes(3);
  });
});
