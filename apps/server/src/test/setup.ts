import { afterEach, vi } from 'vitest';

// A stray console.error means something failed that no assertion looked at: fail the test.
const original = console.error;
afterEach(() => {
  vi.restoreAllMocks();
});
console.error = (...args: unknown[]) => {
  original(...args);
  throw new Error(`console.error was called: ${args.map(String).join(' ').slice(0, 500)}`);
};
