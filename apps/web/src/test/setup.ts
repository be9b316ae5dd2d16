import '@testing-library/jest-dom/vitest';
import '../lib/react-parity';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi, type MockInstance } from 'vitest';
import { i18n, i18nReady } from '../lib/i18n';

// Screens read their texts from the catalogues: English, every namespace loaded before a test renders.
await i18nReady;
await i18n.changeLanguage('en');
await i18n.loadNamespaces(['common', 'admin']);

// A stray console.error (a React warning, an update outside act()) fails the test that caused it.
let consoleError: MockInstance<typeof console.error>;
let errors: unknown[][] = [];

beforeEach(() => {
  errors = [];
  consoleError = vi.spyOn(console, 'error').mockImplementation((...args) => void errors.push(args));
});

afterEach(() => {
  cleanup();
  consoleError.mockRestore();
  if (errors.length > 0)
    throw new Error(
      `console.error was called:\n${errors.map((args) => args.map(String).join(' ')).join('\n')}`,
    );
});
