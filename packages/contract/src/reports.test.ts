import { describe, expect, it } from 'vitest';
import { REPORT_MAX_DAYS } from './constants.ts';
import { SalesReportQuerySchema } from './reports.ts';

describe('sales report query', () => {
  it('takes a span of at most REPORT_MAX_DAYS days, both ends included, grouped by day unless told', () => {
    expect(REPORT_MAX_DAYS).toBe(366);
    expect(SalesReportQuerySchema.parse({ from: '2024-01-01', to: '2024-12-31' })).toEqual({
      from: '2024-01-01',
      to: '2024-12-31',
      groupBy: 'day',
    });
    expect(SalesReportQuerySchema.safeParse({ from: '2024-01-01', to: '2025-01-01' }).success).toBe(false);
    expect(SalesReportQuerySchema.safeParse({ from: '2024-03-02', to: '2024-03-01' }).success).toBe(false);
    expect(SalesReportQuerySchema.safeParse({ from: '2024-02-30', to: '2024-03-01' }).success).toBe(false);
    expect(
      SalesReportQuerySchema.safeParse({ from: '2024-03-01', to: '2024-03-01', groupBy: 'hall' }).success,
    ).toBe(false);
  });
});
