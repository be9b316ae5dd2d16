-- The sales report's kept figures gain the tickets' tax and the booking fees (DESIGN §7.4, decision 047); figures
-- kept before are dropped, so the next report computes them again with these.
ALTER TABLE "sales_report_lines" ADD COLUMN "tax" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sales_report_lines" ADD COLUMN "fees" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sales_report_lines" ADD COLUMN "fee_tax" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
DELETE FROM "sales_report_showtimes";
